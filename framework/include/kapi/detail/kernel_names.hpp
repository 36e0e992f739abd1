// SPDX-License-Identifier: Apache-2.0
#pragma once
// What Kokkos Tools (kernel timers, space-time stack, the Nsight connector) see of a kapi
// launch: its label. A launch named at the call keeps that name; otherwise the label is
// the kind of launch and the kernel's type ("kapi::nd_range matmul::SlidingWindow<float>"),
// as SYCL names a kernel by its type; a launch named by a type, call_kernel<class Name>,
// is that type's name. Launches kapi makes itself, outside Kokkos'
// parallel_for (direct CUDA launches, copies), report to Kokkos Tools here as well.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>

#if defined(__GNUG__)
#include <cxxabi.h>
#endif

#include <kapi/config.hpp>

namespace kapi::detail {

/// The readable name of T (demangled where the compiler can).
template <class T>
const std::string& type_name() {
  static const std::string name = [] {
    const char* raw = typeid(T).name();
#if defined(__GNUG__)
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(abi::__cxa_demangle(raw, nullptr, nullptr, &status), std::free);
    if (status == 0 && readable) return std::string(readable.get());
#endif
    return std::string(raw);
  }();
  return name;
}

enum class LaunchKind { range, nd_range, phased };

inline const char* launch_kind_name(LaunchKind kind) {
  return kind == LaunchKind::range ? "kapi::range" : kind == LaunchKind::phased ? "kapi::phased" : "kapi::nd_range";
}

/// "kapi::<kind> <kernel type>", built once per kind and kernel type.
template <LaunchKind Kind, class Kernel>
const std::string& default_label() {
  static const std::string label = std::string(launch_kind_name(Kind)) + " " + type_name<Kernel>();
  return label;
}

/// The label of a kernel named by a type, call_kernel<class Name>(…) (SYCL's
/// parallel_for<Name>): the type's readable name; a class declared in a function (as
/// `class Name` in the call declares it there) without the function's signature before it.
template <class Name>
const std::string& kernel_name_label() {
  static const std::string label = [] {
    // Through a pointer: typeid needs a complete type, and `class Name` in the call is not.
    std::string full = type_name<Name*>();
    if (!full.empty() && full.back() == '*') full.pop_back();
    while (!full.empty() && full.back() == ' ') full.pop_back();
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i + 2 < full.size(); ++i) {
      const char c = full[i];
      if (c == '<' || c == '(') ++depth;
      if (c == '>' || c == ')') --depth;
      if (c == ')' && depth == 0 && full.compare(i + 1, 2, "::") == 0) start = i + 3;
    }
    return full.substr(start);
  }();
  return label;
}

/// A kernel kapi launches itself, outside Kokkos::parallel_for (Reduce: parallel_reduce),
/// shown to Kokkos Tools as one for the scope's lifetime.
template <bool Reduce>
class ToolsKernelRegion {
 public:
  template <class ExecSpace>
  ToolsKernelRegion(const std::string& label, const ExecSpace& space) {
    if (!Kokkos::Tools::profileLibraryLoaded()) return;
    active_ = true;
#if KOKKOS_VERSION >= 30700
    const std::uint32_t device = Kokkos::Tools::Experimental::device_id(space);
#else
    const std::uint32_t device = Kokkos::Profiling::Experimental::device_id(space);
#endif
    if constexpr (Reduce)
      Kokkos::Tools::beginParallelReduce(label, device, &id_);
    else
      Kokkos::Tools::beginParallelFor(label, device, &id_);
  }
  ~ToolsKernelRegion() {
    if (!active_) return;
    if constexpr (Reduce)
      Kokkos::Tools::endParallelReduce(id_);
    else
      Kokkos::Tools::endParallelFor(id_);
  }
  ToolsKernelRegion(const ToolsKernelRegion&) = delete;
  ToolsKernelRegion& operator=(const ToolsKernelRegion&) = delete;

 private:
  bool active_ = false;
  std::uint64_t id_ = 0;
};
using ToolsParallelFor = ToolsKernelRegion<false>;
using ToolsParallelReduce = ToolsKernelRegion<true>;

/// A copy kapi makes itself (cudaMemcpyAsync), shown to Kokkos Tools as a deep copy.
class ToolsDeepCopy {
 public:
  ToolsDeepCopy(const char* dst_space, const std::string& dst_label, const void* dst, const char* src_space,
                const std::string& src_label, const void* src, std::uint64_t bytes) {
    if (!Kokkos::Tools::profileLibraryLoaded()) return;
    active_ = true;
    Kokkos::Tools::beginDeepCopy(Kokkos::Tools::make_space_handle(dst_space), dst_label, dst,
                                 Kokkos::Tools::make_space_handle(src_space), src_label, src, bytes);
  }
  ~ToolsDeepCopy() {
    if (active_) Kokkos::Tools::endDeepCopy();
  }
  ToolsDeepCopy(const ToolsDeepCopy&) = delete;
  ToolsDeepCopy& operator=(const ToolsDeepCopy&) = delete;

 private:
  bool active_ = false;
};

}  // namespace kapi::detail
