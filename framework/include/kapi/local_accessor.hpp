// SPDX-License-Identifier: Apache-2.0
#pragma once
// LocalAccessor<T, N>: work-group shared local memory, declared on the host with its
// shape and either passed to an nd-range kernel as an argument (numba-dpex's way) or
// captured by the kernel (SYCL's way). The launch places every accessor in the group's
// local memory; inside the kernel it reads and writes it. Copies of one accessor (an
// argument and a capture, or two captures) share its memory.
// The shape in any natural spelling (any integer types):
//   kapi::LocalAccessor<float, 2> tile(s, s);                    // extents
//   kapi::LocalAccessor<float, 2> tile({s, s});                  // numba-dpex's LocalAccessor((s, s), ...)
//   kapi::LocalAccessor<float, 2> tile{s, s};  ... tile = {s, s};
//   kapi::LocalAccessor<float, 2> tile(kapi::Range<2>{s, s});    // SYCL's local_accessor(range<2>{s, s}, h)
//   kapi::LocalAccessor<float, 2> tile(nd.get_local_range());    // a Range
//   kapi::LocalAccessor<float, 2> tile(std::array<std::size_t, 2>{s, s});
#include <array>
#include <cstddef>
#include <type_traits>

#include <kapi/detail/capture_tags.hpp>
#include <kapi/id.hpp>
#include <kapi/range.hpp>

namespace kapi {

template <class T, int N = 1>
class LocalAccessor {
  static_assert(N >= 1 && N <= 3, "kapi::LocalAccessor supports 1, 2 or 3 dimensions");
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "local memory holds trivially copyable element types only");

 public:
  using value_type = T;
  static constexpr int dimensions = N;

  LocalAccessor() = default;
  // The shape's constructors are chosen so that a braced shape, ({s, s}), has exactly one
  // best match: a Range parameter would convert {s, s} as the copy constructor does
  // (through the extents constructor), and g++ rejects the call as ambiguous.
  /// A Range<N> (a template, so that a braced list never converts to it).
  template <class R, class = std::enable_if_t<std::is_same_v<R, Range<N>>>>
  explicit LocalAccessor(const R& shape) : tag_(detail::LocalMemoryTag::make(sizeof(T), shape.extent)), shape_(shape) {}
  /// A std::array of N extents.
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
  explicit LocalAccessor(const std::array<I, N>& extents) : shape_(extents) {
    tag_ = detail::LocalMemoryTag::make(sizeof(T), shape_.extent);
  }
  /// Braced extents of one integer type, ({s, s}): an exact match.
  template <class I, std::size_t M, class = std::enable_if_t<M == N && std::is_integral_v<I>>>
  explicit LocalAccessor(const I (&extents)[M]) {
    for (int d = 0; d < N; ++d) shape_.extent[d] = static_cast<std::size_t>(extents[d]);
    tag_ = detail::LocalMemoryTag::make(sizeof(T), shape_.extent);
  }
  /// One extent (rank 1).
  template <class I, class = std::enable_if_t<N == 1 && std::is_integral_v<I>>>
  explicit LocalAccessor(I extent) : shape_(extent) {
    tag_ = detail::LocalMemoryTag::make(sizeof(T), shape_.extent);
  }
  /// N >= 2 extents, (s, t) or {s, t}; not explicit, so that a braced shape of mixed integer
  /// types, ({s, 4}), converts.
  template <class... I, class = std::enable_if_t<(N >= 2) && sizeof...(I) == N && (std::is_integral_v<I> && ...)>>
  LocalAccessor(I... extents) : shape_(extents...) {
    tag_ = detail::LocalMemoryTag::make(sizeof(T), shape_.extent);
  }

  template <class... I>
  KAPI_FUNCTION T& operator()(I... i) const {
    static_assert(sizeof...(I) == N, "LocalAccessor: index count must equal its rank");
    const std::size_t id[N] = {static_cast<std::size_t>(i)...};
    std::size_t linear = id[0];
    for (int d = 1; d < N; ++d) linear = linear * shape_.extent[d] + id[d];
    return data_[linear];
  }
  /// Linear (row-major) element access; for rank 1 the usual subscript.
  KAPI_FUNCTION T& operator[](std::size_t linear) const { return data_[linear]; }
  /// The element at an id (SYCL's acc[id]).
  KAPI_FUNCTION T& operator[](const Id<N>& id) const {
    std::size_t linear = id[0];
    for (int d = 1; d < N; ++d) linear = linear * shape_.extent[d] + id[d];
    return data_[linear];
  }

  KAPI_FUNCTION Range<N> get_range() const { return shape_; }
  KAPI_FUNCTION std::size_t size() const { return shape_.size(); }
  KAPI_FUNCTION std::size_t byte_size() const { return shape_.size() * sizeof(T); }
  KAPI_FUNCTION T* get_pointer() const { return data_; }

  // Used by the launch to point the accessor at the group's scratch.
  KAPI_FUNCTION LocalAccessor impl_bound_to(void* memory) const {
    LocalAccessor bound(*this);
    bound.data_ = static_cast<T*>(memory);
    return bound;
  }
  const detail::LocalMemoryTag& impl_tag() const { return tag_; }

 private:
  // First, then the data pointer: where a launch finds a captured copy inside the kernel
  // and points it at the group's memory (detail/captured_locals.hpp).
  detail::LocalMemoryTag tag_;
  T* data_ = nullptr;
  Range<N> shape_;
};

template <class T>
inline constexpr bool is_local_accessor_v = false;
template <class T, int N>
inline constexpr bool is_local_accessor_v<LocalAccessor<T, N>> = true;

}  // namespace kapi
