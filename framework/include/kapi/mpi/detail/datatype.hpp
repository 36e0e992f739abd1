// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MPI datatype of a C++ element type: the predefined one for arithmetic types, else
// the element's bytes (trivially copyable types only).
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace kapi::mpi::detail {

template <class T>
struct Datatype {
  static_assert(std::is_trivially_copyable_v<T>, "kapi::mpi transfers trivially copyable elements");
  static MPI_Datatype type() { return MPI_BYTE; }
  static constexpr int scale = int(sizeof(T));  // MPI_BYTEs per element
};
#define KAPI_MPI_DATATYPE(T, M)              \
  template <>                                \
  struct Datatype<T> {                       \
    static MPI_Datatype type() { return M; } \
    static constexpr int scale = 1;          \
  };
KAPI_MPI_DATATYPE(float, MPI_FLOAT)
KAPI_MPI_DATATYPE(double, MPI_DOUBLE)
KAPI_MPI_DATATYPE(char, MPI_CHAR)
KAPI_MPI_DATATYPE(std::int32_t, MPI_INT32_T)
KAPI_MPI_DATATYPE(std::int64_t, MPI_INT64_T)
KAPI_MPI_DATATYPE(std::uint32_t, MPI_UINT32_T)
KAPI_MPI_DATATYPE(std::uint64_t, MPI_UINT64_T)
#undef KAPI_MPI_DATATYPE

/// `elements` elements of `scale` MPI elements each as one message's int count, or -1
/// when an int cannot hold it (MPI's counts are ints).
inline int message_count(std::size_t elements, int scale) {
  if (scale <= 0 || elements > std::size_t(std::numeric_limits<int>::max()) / std::size_t(scale)) return -1;
  return int(elements * std::size_t(scale));
}

}  // namespace kapi::mpi::detail
