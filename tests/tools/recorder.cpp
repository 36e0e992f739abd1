// SPDX-License-Identifier: Apache-2.0
// A minimal Kokkos Tools library (the kokkosp_* callback interface) for the tests: it
// appends one line per parallel_for, parallel_reduce and deep copy to the file named by
// KAPI_TOOLS_RECORD,
//   for <label>
//   reduce <label>
//   copy <destination label> <- <source label>
// so that a test can check what Kokkos Tools users see of kapi's launches.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
std::FILE* record = nullptr;

void write_line(const char* kind, const char* a, const char* b = nullptr) {
  if (!record) return;
  if (b)
    std::fprintf(record, "%s %s <- %s\n", kind, a, b);
  else
    std::fprintf(record, "%s %s\n", kind, a);
  std::fflush(record);
}
}  // namespace

struct SpaceHandle {
  char name[64];
};

extern "C" {

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  const char* path = std::getenv("KAPI_TOOLS_RECORD");
  if (path) record = std::fopen(path, "w");
}

void kokkosp_finalize_library() {
  if (record) std::fclose(record);
  record = nullptr;
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) {
  *id = 0;
  write_line("for", name);
}
void kokkosp_end_parallel_for(std::uint64_t) {}

void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) {
  *id = 0;
  write_line("reduce", name);
}
void kokkosp_end_parallel_reduce(std::uint64_t) {}

void kokkosp_begin_deep_copy(SpaceHandle, const char* dst_label, const void*, SpaceHandle, const char* src_label,
                             const void*, std::uint64_t) {
  write_line("copy", dst_label, src_label);
}
void kokkosp_end_deep_copy() {}

}  // extern "C"
