// SPDX-License-Identifier: Apache-2.0
#pragma once
// matmul: C = A·B for row-major (LayoutRight) matrices, by several kernels written with
// kapi and the Kokkos Kernels anchor. The interface the command-line program, the tests
// and the benchmarks share:
//
//   matmul::Matrix<float, Space> c("C", m, n);                // A: m×k, B: k×n
//   matmul::multiply<float>("tuned", space, a, b, c);         // returns when C is written
//   matmul::multiply_async<float>("tuned", space, a, b, c);   // returns once queued on space;
//   space.fence();                                             // C written (completion.hpp)
//
// Variants: matmul::variant_table at the end of this file (name, summary, kind, code);
// the program's --variant list and --help and the benchmark's cases are read from it.
// The kernels: sliding_window.hpp (flat), sliding_window_phased.hpp, naive.hpp, tuned.hpp,
// tensor_cores.hpp (portable) and tensor_cores_sm90.hpp (Hopper), kokkos_kernels.hpp (the
// anchor).
// Element types float and double (the tensor-core variants tuned-tf32/-bf16/-fp16: float
// only, with inputs rounded to their type; tuned-fp64: double only); any m, n, k
// (including 0 and sizes that are not multiples of the blocks). No variant allocates but
// the tensor-core ones on an H100/H200 (tensor_cores_sm90.hpp: a packed copy of A and B,
// kept between calls and released at Kokkos::finalize); elsewhere the local tiles are the
// launch's scratch.
// Accuracy: every variant sums K products per element; reference.hpp checks against a
// double-precision product with tolerance K·eps·(|A|·|B|)_ij, plus (2u + u²)(|A|·|B|)_ij
// for a variant that rounds its inputs to unit roundoff u (input_unit_roundoff).
#include <stdexcept>
#include <string>
#include <vector>

#include <kapi_apps/instances.hpp>
#include <kapi_apps/variant_table.hpp>

#include "kokkos_kernels.hpp"
#include "naive.hpp"
#include "sliding_window.hpp"
#include "sliding_window_phased.hpp"
#include "tensor_cores.hpp"
#include "tensor_cores_sm90.hpp"
#include "tuned.hpp"

namespace matmul {

/// C = A·B with the sliding-window algorithm in the phased form, Tile×Tile work-groups.
template <std::size_t Tile, class ExecSpace, class A, class B, class C>
void multiply_sliding_window_phased(const ExecSpace& space, const A& a, const B& b, const C& c,
                                    Completion done = Completion::written) {
  using T = typename C::non_const_value_type;
  kapi::LocalAccessor<T, 2> a_tile(Tile, Tile), b_tile(Tile, Tile);
  finish(kapi::call_kernel_async(space, SlidingWindowPhased{}, sliding_window_range(c.extent(0), c.extent(1), Tile), a,
                                 b, c, a_tile, b_tile),
         done);
}

template <class T, class ExecSpace>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;
template <class T, class ExecSpace>
using ConstMatrix = Kokkos::View<const T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

/// A variant's code: C = A·B on `space`, returning when C is written or, given
/// Completion::queued, once it is queued (completion.hpp).
template <std::size_t Tile>
struct RunSlidingWindow {
  template <class ExecSpace, class A, class B, class C>
  void operator()(const ExecSpace& space, const A& a, const B& b, const C& c, Completion done) const {
    multiply_sliding_window<Tile>(space, a, b, c, done);
  }
};
template <std::size_t Tile>
struct RunSlidingWindowPhased {
  template <class ExecSpace, class A, class B, class C>
  void operator()(const ExecSpace& space, const A& a, const B& b, const C& c, Completion done) const {
    multiply_sliding_window_phased<Tile>(space, a, b, c, done);
  }
};
struct RunNaive {
  template <class ExecSpace, class A, class B, class C>
  void operator()(const ExecSpace& space, const A& a, const B& b, const C& c, Completion done) const {
    multiply_naive(space, a, b, c, done);
  }
};
struct RunTuned {
  template <class ExecSpace, class A, class B, class C>
  void operator()(const ExecSpace& space, const A& a, const B& b, const C& c, Completion done) const {
    multiply_tuned(space, a, b, c, done);
  }
};
template <class In>
struct RunJointMatrix {
  template <class ExecSpace, class A, class B, class C>
  void operator()(const ExecSpace& space, const A& a, const B& b, const C& c, Completion done) const {
    if (!sm90::multiply_if_taken<In>(space, a, b, c, done)) multiply_joint_matrix<In>(space, a, b, c, done);
  }
};
struct RunKokkosKernels {
  template <class ExecSpace, class A, class B, class C>
  void operator()([[maybe_unused]] const ExecSpace& space, [[maybe_unused]] const A& a, [[maybe_unused]] const B& b,
                  [[maybe_unused]] const C& c, [[maybe_unused]] Completion done) const {
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
    multiply_kokkos_kernels(space, a, b, c);
    if (done == Completion::written) space.fence();
#else
    throw std::invalid_argument("matmul: kokkos-kernels needs Kokkos Kernels, which this build lacks");
#endif
  }
};

/// Whether this build has Kokkos Kernels (the kokkos-kernels variant).
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
inline constexpr bool have_kokkos_kernels = true;
#else
inline constexpr bool have_kokkos_kernels = false;
#endif

/// Every variant, in the order the program runs them.
inline constexpr kapi_apps::VariantTable variant_table{
    "matmul",
    kapi_apps::variant("sliding-window-t2",
                       "the sliding-window kernel: flat nd-range, 2x2 work-groups, A and B tiles in local memory, "
                       "two group_barriers per step",
                       kapi_apps::Kind::kapi, RunSlidingWindow<2>{}),
    kapi_apps::variant("sliding-window-t8", "the sliding-window kernel with 8x8 work-groups and tiles",
                       kapi_apps::Kind::kapi, RunSlidingWindow<8>{}),
    kapi_apps::variant("sliding-window-t16", "the sliding-window kernel with 16x16 work-groups and tiles",
                       kapi_apps::Kind::kapi, RunSlidingWindow<16>{}),
    kapi_apps::variant("sliding-window-t32", "the sliding-window kernel with 32x32 work-groups and tiles",
                       kapi_apps::Kind::kapi, RunSlidingWindow<32>{}),
    kapi_apps::variant("phased-t16",
                       "the sliding-window algorithm in the phased form (kapi::WorkGroup), 16x16 work-groups: "
                       "the twin of sliding-window-t16",
                       kapi_apps::Kind::kapi, RunSlidingWindowPhased<16>{}),
    kapi_apps::variant("naive", "a range kernel, one inner product along k per element of C, no local memory",
                       kapi_apps::Kind::kapi, RunNaive{}),
    kapi_apps::variant("tuned",
                       "a register-blocked nd-range kernel: A and B tiles in local memory, a block of C in "
                       "each work-item's registers",
                       kapi_apps::Kind::kapi, RunTuned{}),
    kapi_apps::variant("tuned-tf32",
                       "tensor cores through kapi::joint_matrix: A and B rounded to tf32, fp32 sums; 128x128 blocks "
                       "of 8 sub-groups, local tiles double-buffered; on an H100/H200 wgmma on packed A and B "
                       "(float matrices only)",
                       kapi_apps::Kind::kapi, RunJointMatrix<kapi::precision::tf32>{}),
    kapi_apps::variant("tuned-bf16",
                       "the tensor-core kernel with A and B rounded to bfloat16 as they are staged, fp32 sums "
                       "(float matrices only)",
                       kapi_apps::Kind::kapi, RunJointMatrix<kapi::bfloat16>{}),
    kapi_apps::variant("tuned-fp16",
                       "the tensor-core kernel with A and B rounded to IEEE half as they are staged, fp32 sums "
                       "(float matrices only)",
                       kapi_apps::Kind::kapi, RunJointMatrix<kapi::half>{}),
    kapi_apps::variant("tuned-fp64",
                       "the tensor-core kernel on fp64 matrices: fp64 products and sums on the matrix units (DMMA "
                       "on CUDA sm_80+), 128x128 blocks, one group per multiprocessor (double matrices only)",
                       kapi_apps::Kind::kapi, RunJointMatrix<double>{}),
    kapi_apps::variant("kokkos-kernels", "anchor: KokkosBlas::gemm (OpenBLAS sgemm/dgemm on host, cuBLAS on CUDA)",
                       kapi_apps::Kind::anchor, RunKokkosKernels{}, have_kokkos_kernels),
};

/// The variants this build provides, in the order the program runs them.
inline std::vector<std::string> variants() { return variant_table.names(); }

inline void check_variant(const std::string& variant) { variant_table.check(variant); }

/// The unit roundoff of the element type `variant` rounds A and B to before multiplying
/// (tf32 2^-11, bfloat16 2^-8, half 2^-11); 0 for the variants that use them as they are.
inline double input_unit_roundoff(const std::string& variant) {
  if (variant == "tuned-tf32" || variant == "tuned-fp16") return 1.0 / 2048;
  if (variant == "tuned-bf16") return 1.0 / 256;
  return 0;
}

/// Whether `variant` takes double matrices (the reduced-precision tensor-core variants
/// take float only).
inline bool takes_double(const std::string& variant) { return input_unit_roundoff(variant) == 0; }
/// Whether `variant` takes float matrices (tuned-fp64 takes double only).
inline bool takes_float(const std::string& variant) { return variant != "tuned-fp64"; }

/// Throws std::invalid_argument unless A (m×k), B (k×n) and C (m×n) fit together.
template <class A, class B, class C>
void check_shapes(const A& a, const B& b, const C& c) {
  if (a.extent(0) != c.extent(0) || b.extent(1) != c.extent(1) || a.extent(1) != b.extent(0))
    throw std::invalid_argument("matmul: shapes do not match: A is " + std::to_string(a.extent(0)) + "x" +
                                std::to_string(a.extent(1)) + ", B " + std::to_string(b.extent(0)) + "x" +
                                std::to_string(b.extent(1)) + ", C " + std::to_string(c.extent(0)) + "x" +
                                std::to_string(c.extent(1)));
}

/// C = A·B by `variant` on `space`, returning when C is written or, given
/// Completion::queued, once the product is queued on `space` (as a library GEMM does:
/// fence `space` before reading C). Where the tensor-core variants pack A and B (an
/// H100/H200), the packs are queued before the product on the same stream.
template <class T, class ExecSpace>
void multiply(const std::string& variant, const ExecSpace& space, const ConstMatrix<T, ExecSpace>& a,
              const ConstMatrix<T, ExecSpace>& b, const Matrix<T, ExecSpace>& c,
              Completion done = Completion::written) {
  check_shapes(a, b, c);
  if (!variant_table.visit(variant, [&](const auto& v) { v.run(space, a, b, c, done); })) check_variant(variant);
}

/// multiply(…, Completion::queued).
template <class T, class ExecSpace>
void multiply_async(const std::string& variant, const ExecSpace& space, const ConstMatrix<T, ExecSpace>& a,
                    const ConstMatrix<T, ExecSpace>& b, const Matrix<T, ExecSpace>& c) {
  multiply<T>(variant, space, a, b, c, Completion::queued);
}

// Every variant's code for float and double on every enabled space is compiled once, in
// kapi_app_matmul's library (src/instances.cpp; kapi_apps/instances.hpp says why).
#define MATMUL_INSTANCE_ARGS(T, Space) \
  (const Space&, const ConstMatrix<T, Space>&, const ConstMatrix<T, Space>&, const Matrix<T, Space>&, Completion)
#define MATMUL_KOKKOS_KERNELS_INSTANCE(prefix, T, Space)
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
#undef MATMUL_KOKKOS_KERNELS_INSTANCE
#define MATMUL_KOKKOS_KERNELS_INSTANCE(prefix, T, Space)                                   \
  prefix template void multiply_kokkos_kernels(const Space&, const ConstMatrix<T, Space>&, \
                                               const ConstMatrix<T, Space>&, const Matrix<T, Space>&);
#endif
#define MATMUL_INSTANCES_OF(prefix, T, Space)                                                       \
  prefix template void multiply_sliding_window<2> MATMUL_INSTANCE_ARGS(T, Space);                   \
  prefix template void multiply_sliding_window<8> MATMUL_INSTANCE_ARGS(T, Space);                   \
  prefix template void multiply_sliding_window<16> MATMUL_INSTANCE_ARGS(T, Space);                  \
  prefix template void multiply_sliding_window<32> MATMUL_INSTANCE_ARGS(T, Space);                  \
  prefix template void multiply_sliding_window_phased<16> MATMUL_INSTANCE_ARGS(T, Space);           \
  prefix template void multiply_naive MATMUL_INSTANCE_ARGS(T, Space);                               \
  prefix template void multiply_tuned MATMUL_INSTANCE_ARGS(T, Space);                               \
  prefix template void multiply_joint_matrix<kapi::precision::tf32> MATMUL_INSTANCE_ARGS(T, Space); \
  prefix template void multiply_joint_matrix<kapi::bfloat16> MATMUL_INSTANCE_ARGS(T, Space);        \
  prefix template void multiply_joint_matrix<kapi::half> MATMUL_INSTANCE_ARGS(T, Space);            \
  prefix template void multiply_joint_matrix<double> MATMUL_INSTANCE_ARGS(T, Space);                \
  MATMUL_KOKKOS_KERNELS_INSTANCE(prefix, T, Space)
#define MATMUL_INSTANCES(prefix, Space) \
  MATMUL_INSTANCES_OF(prefix, float, Space) MATMUL_INSTANCES_OF(prefix, double, Space)
#if !defined(MATMUL_COMPILING_INSTANCES)
KAPI_APPS_FOR_EACH_SPACE(MATMUL_INSTANCES, extern)
#endif

}  // namespace matmul
