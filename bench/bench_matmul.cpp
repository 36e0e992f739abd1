// SPDX-License-Identifier: Apache-2.0
// bench_matmul: C = A·B, square n×n, fp32 (and fp64 on CUDA), row-major, on the default
// execution space.
//   anchor      kokkos-kernels      KokkosBlas::gemm with Kokkos Kernels' vendor BLAS: OpenBLAS
//                                   sgemm on host (as many threads as Kokkos), cublasSgemm on
//                                   CUDA (default math mode: no TF32); written here, it stands
//                                   for the app's variant of that name
//               cublas              on CUDA when Kokkos Kernels has no cuBLAS TPL: cublasSgemm
//                                   called directly (row-major as C^T = B^T·A^T)
//   raw-kokkos  raw-teampolicy-t16  the sliding-window algorithm written directly on
//                                   Kokkos TeamPolicy + team scratch (raw/matmul_sliding_window.hpp):
//                                   the twin of sliding-window-t16 on devices, of phased-t16 on host
//   library     cublas-tf32         on CUDA: cublasGemmEx, fp32 A, B and C, CUBLAS_COMPUTE_32F_FAST_TF32
//                                   (tensor cores, inputs rounded to tf32): the anchor of tuned-tf32
//               cublas-bf16         on CUDA: cublasGemmEx, bfloat16 A and B (converted on the device
//                                   once, before any timing), fp32 C, CUBLAS_COMPUTE_32F: the anchor
//                                   of tuned-bf16 (which reads fp32 A and B and rounds them as it
//                                   stages its tiles, inside its time)
//               cublas-fp16         likewise with IEEE half inputs: the anchor of tuned-fp16
//   anchor (f64) cublas-dgemm       on CUDA: cublasDgemm on fp64 matrices (the f64 cases' anchor:
//                                   tuned-fp64 and its shapes)
//   kapi        the framework variants of matmul::variant_table
// Work: 2·n³ FLOP per run. Check: exact (the data are small multiples of powers of two,
// so every summation order gives the same floats or doubles): a checksum of all of C and
// 256 entries.
#include <stdexcept>
#include <vector>
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
#include <KokkosBlas3_gemm.hpp>
#include <KokkosKernels_config.h>
#endif
// CMake defines KAPI_BENCH_HAVE_CUBLAS only for CUDA builds (no Kokkos macro is seen yet
// here when Kokkos Kernels is absent).
#if defined(KAPI_BENCH_HAVE_CUBLAS)
#include <cublas_v2.h>
#endif

#include <kapi/execution_space.hpp>
#include <matmul/matmul.hpp>

#include "common/app_variants.hpp"
#include "common/checks.hpp"
#include "common/harness.hpp"
#include "common/timing.hpp"
#include "raw/matmul_sliding_window.hpp"

#if defined(__GNUC__) && !defined(KOKKOS_ENABLE_CUDA)
#define KAPI_BENCH_OPENBLAS_CONTROL 1
#include <sched.h>
#include <unistd.h>
// OpenBLAS' own thread pool: the anchor gets as many threads as the Kokkos space.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));
extern "C" int openblas_get_num_threads(void) __attribute__((weak));
extern "C" char* openblas_get_corename(void) __attribute__((weak));
extern "C" char* openblas_get_config(void) __attribute__((weak));
#endif

namespace {

using namespace kapi_bench;
using T = float;
using Matrix = matmul::Matrix<T, Space>;
using ConstMatrix = matmul::ConstMatrix<T, Space>;

// The data: entries are multiples of 1/4 and 1/2 below 1, so every product and every
// partial sum up to n = 8192 is exact in fp32.
KOKKOS_INLINE_FUNCTION T a_value(std::int64_t i, std::int64_t k) { return T(((i * 3 + k * 5) % 7) - 3) * T(0.25); }
KOKKOS_INLINE_FUNCTION T b_value(std::int64_t k, std::int64_t j) { return T(((k * 2 + j * 7) % 5) - 2) * T(0.5); }

template <class E>
struct FillAB {
  matmul::Matrix<E, Space> a, b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j) const {
    a(i, j) = E(a_value(i, j));
    b(i, j) = E(b_value(i, j));
  }
};

/// One size's matrices of element type E (float; double for the f64 cases).
template <class E>
struct DataOf {
  using value_type = E;
  std::size_t n = 0;
  matmul::Matrix<E, Space> a, b, c;
};
using Data = DataOf<T>;

template <class E>
DataOf<E> make_data(const Space& space, std::size_t n) {
  using M = matmul::Matrix<E, Space>;
  DataOf<E> d;
  d.n = n;
  d.a = M(Kokkos::view_alloc(std::string("A"), Kokkos::WithoutInitializing), n, n);
  d.b = M(Kokkos::view_alloc(std::string("B"), Kokkos::WithoutInitializing), n, n);
  d.c = M(std::string("C"), n, n);
  const auto e = static_cast<std::int64_t>(n);
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("bench_matmul::fill", Policy(space, {0, 0}, {e, e}), FillAB<E>{d.a, d.b});
  space.fence();
  return d;
}

template <class E>
using CacheOf = std::shared_ptr<DataCache<DataOf<E>>>;
using Cache = CacheOf<T>;

/// C is poisoned with NaN before the checked run: entries a variant leaves unwritten show.
template <class E>
void poison(const Space& space, const DataOf<E>& d) {
  Kokkos::deep_copy(d.c, std::numeric_limits<E>::quiet_NaN());
  space.fence();
}

template <class E>
std::string verify(const DataOf<E>& d) {
  const std::size_t n = d.n;
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.c);
  const auto e = static_cast<std::int64_t>(n);
  // Sum of all entries = sum_k (column sum of A)(k) · (row sum of B)(k), exact in double.
  double expected = 0, got = 0;
  for (std::int64_t k = 0; k < e; ++k) {
    double col_a = 0, row_b = 0;
    for (std::int64_t i = 0; i < e; ++i) col_a += a_value(i, k);
    for (std::int64_t j = 0; j < e; ++j) row_b += b_value(k, j);
    expected += col_a * row_b;
  }
  for (std::int64_t i = 0; i < e; ++i)
    for (std::int64_t j = 0; j < e; ++j) got += c(i, j);
  if (got != expected) return mismatch("sum of all entries of C", expected, got);
  for (std::uint64_t s = 0; s < 256; ++s) {
    const auto i = static_cast<std::int64_t>(s < 2 ? (s ? e - 1 : 0) : mix(2 * s) % n);
    const auto j = static_cast<std::int64_t>(s < 2 ? (s ? e - 1 : 0) : mix(2 * s + 1) % n);
    double want = 0;
    for (std::int64_t k = 0; k < e; ++k) want += double(a_value(i, k)) * double(b_value(k, j));
    if (double(c(i, j)) != want)
      return mismatch("C(" + std::to_string(i) + "," + std::to_string(j) + ")", want, c(i, j));
  }
  return {};
}

template <class E>
Case base(const Harness& h, const CacheOf<E>& data, std::size_t n, const std::string& variant, Role role) {
  Case c;
  c.app = "matmul";
  c.type = sizeof(E) == 8 ? "f64" : "f32";
  c.variant = variant;
  c.role = role;
  c.size_name = "n";
  c.size = n;
  c.work = 2.0 * double(n) * double(n) * double(n);
  c.unit = "GFLOP/s";
  c.time_unit = benchmark::kMillisecond;
  const Space space = h.space();
  c.poison = [space, data, n] { poison(space, *data->get(n)); };
  c.verify = [data, n] { return verify(*data->get(n)); };
  return c;
}

// ----------------------------------------------------------------------------- anchor

// Which sgemm the anchor calls: the vendor library whenever there is one.
enum class Gemm { kokkos_kernels_vendor, cublas, kokkos_kernels_native, none };
constexpr Gemm gemm_anchor() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (is_cuda_space<Space>) {
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS) && defined(KOKKOSKERNELS_ENABLE_TPL_CUBLAS)
    return Gemm::kokkos_kernels_vendor;
#elif defined(KAPI_BENCH_HAVE_CUBLAS)
    return Gemm::cublas;
#elif defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
    return Gemm::kokkos_kernels_native;
#else
    return Gemm::none;
#endif
  }
#endif
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS) && defined(KOKKOSKERNELS_ENABLE_TPL_BLAS)
  return kapi::is_host_execution_space_v<Space> ? Gemm::kokkos_kernels_vendor : Gemm::kokkos_kernels_native;
#elif defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
  return Gemm::kokkos_kernels_native;
#else
  return Gemm::none;
#endif
}

std::string gemm_description() {
  const std::string threads = std::to_string(host_threads());
  switch (gemm_anchor()) {
    case Gemm::kokkos_kernels_vendor:
      return is_cuda_space<Space>
                 ? "KokkosBlas::gemm -> cuBLAS cublasSgemm (Kokkos Kernels' cuBLAS TPL; default math "
                   "mode: no TF32)"
                 : "KokkosBlas::gemm -> OpenBLAS sgemm (Kokkos Kernels' BLAS TPL), " + threads + " threads";
    case Gemm::cublas:
      return "cublasSgemm called directly (Kokkos Kernels has no cuBLAS TPL; default math mode: no TF32)";
    case Gemm::kokkos_kernels_native:
      return "KokkosBlas::gemm, Kokkos Kernels' own kernel (no vendor BLAS TPL: not a vendor anchor)";
    default:
      return "none: Kokkos Kernels not found at configure time";
  }
}

#if defined(KOKKOS_ENABLE_CUDA) && defined(KAPI_BENCH_HAVE_CUBLAS)
/// The cuBLAS handle of the run: made on first use, destroyed before Kokkos::finalize.
class Cublas {
 public:
  explicit Cublas(Harness& h) : h_(h) {}
  cublasHandle_t handle() {
    if (!handle_) {
      if (cublasCreate(&handle_) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
      cublasHandle_t h = handle_;
      h_.at_finalize([h] { cublasDestroy(h); });
    }
    return handle_;
  }

 private:
  Harness& h_;
  cublasHandle_t handle_ = nullptr;
};

/// Row-major C = A·B through cublasGemmEx in a tensor-core math mode: inputs of type
/// `in` (A and B of the same type), fp32 C, `compute` (C^T = B^T·A^T, column-major).
void cublas_gemm_ex(cublasHandle_t h, const Space& space, const void* a, const void* b, const Matrix& c,
                    std::size_t k_extent, cudaDataType in, cublasComputeType_t compute) {
  const int m = int(c.extent(0)), n = int(c.extent(1)), k = int(k_extent);
  const float one = 1, zero = 0;
  cublasSetStream(h, space.cuda_stream());
  if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, in, n, a, in, k, &zero, c.data(), CUDA_R_32F, n,
                   compute, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cublasGemmEx failed");
}

/// A and B converted to a 16-bit input type on the device, once per size (before timing).
template <class H>
struct Converted {
  Kokkos::View<H**, Kokkos::LayoutRight, Space::memory_space> a, b;
};
template <class H>
struct ConvertAB {
  Matrix a, b;
  Kokkos::View<H**, Kokkos::LayoutRight, Space::memory_space> ha, hb;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j) const {
    ha(i, j) = H(a(i, j));
    hb(i, j) = H(b(i, j));
  }
};
template <class H>
std::shared_ptr<Converted<H>> convert(const Space& space, const Data& d) {
  auto out = std::make_shared<Converted<H>>();
  out->a = decltype(out->a)(Kokkos::view_alloc(std::string("A16"), Kokkos::WithoutInitializing), d.n, d.n);
  out->b = decltype(out->b)(Kokkos::view_alloc(std::string("B16"), Kokkos::WithoutInitializing), d.n, d.n);
  const auto e = static_cast<std::int64_t>(d.n);
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("bench_matmul::convert", Policy(space, {0, 0}, {e, e}), ConvertAB<H>{d.a, d.b, out->a, out->b});
  space.fence();
  return out;
}

/// Row-major C = A·B through column-major cuBLAS: C^T = B^T·A^T.
void cublas_sgemm(cublasHandle_t h, const Space& space, const Matrix& a, const Matrix& b, const Matrix& c) {
  const int m = int(c.extent(0)), n = int(c.extent(1)), k = int(a.extent(1));
  const float one = 1, zero = 0;
  cublasSetStream(h, space.cuda_stream());
  if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b.data(), n, a.data(), k, &zero, c.data(), n) !=
      CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cublasSgemm failed");
}

/// Row-major C = A·B in fp64 through cublasDgemm (C^T = B^T·A^T).
void cublas_dgemm(cublasHandle_t h, const Space& space, const matmul::Matrix<double, Space>& a,
                  const matmul::Matrix<double, Space>& b, const matmul::Matrix<double, Space>& c) {
  const int m = int(c.extent(0)), n = int(c.extent(1)), k = int(a.extent(1));
  const double one = 1, zero = 0;
  cublasSetStream(h, space.cuda_stream());
  if (cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b.data(), n, a.data(), k, &zero, c.data(), n) !=
      CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cublasDgemm failed");
}
#else
class Cublas {
 public:
  explicit Cublas(Harness&) {}
};
#endif

std::function<void()> gemm_op([[maybe_unused]] const std::shared_ptr<Cublas>& cublas,
                              [[maybe_unused]] const Space& space, const std::shared_ptr<Data>& d) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(KAPI_BENCH_HAVE_CUBLAS)
  if (gemm_anchor() == Gemm::cublas) {
    cublasHandle_t h = cublas->handle();
    return [h, space, d] { cublas_sgemm(h, space, d->a, d->b, d->c); };
  }
#endif
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
  return [d] { KokkosBlas::gemm("N", "N", T(1), d->a, d->b, T(0), d->c); };
#else
  (void)d;
  throw std::runtime_error(gemm_description());
#endif
}

// ----------------------------------------------------------------------------- sweep

std::vector<std::size_t> default_sizes(const Harness& h) {
  const std::vector<std::size_t> all = {128, 256, 512, 1024, 2048, 4096, 8192};
  const bool full = h.options().full();
  switch (h.backend()) {
    case Backend::serial:
      return between(all, 128, full ? 2048 : 512);
    case Backend::host_parallel:
      return between(all, 128, full ? 4096 : 2048);
    default:
      return between(all, full ? 128 : 512, 8192);
  }
}

#if defined(KAPI_BENCH_OPENBLAS_CONTROL) && defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
/// OpenBLAS starts its worker threads on its first parallel call, and a new thread inherits
/// the CPU affinity of its creator. By then OpenMP (OMP_PROC_BIND) has bound the main
/// thread to one core, so every OpenBLAS worker would share that core: the anchor ran at
/// the speed of one core on two threads.
/// Start the pool from an unbound main thread instead, then rebind the main thread.
void start_blas_threads_unbound(int threads) {
  if (!openblas_set_num_threads) return;
  cpu_set_t bound;
  const bool have = sched_getaffinity(0, sizeof bound, &bound) == 0;
  if (have) {
    cpu_set_t all;
    CPU_ZERO(&all);
    const long cpus = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &all);
    sched_setaffinity(0, sizeof all, &all);
  }
  openblas_set_num_threads(threads);
  {  // one parallel sgemm creates the workers
    Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> a("a", 256, 256), b("b", 256, 256), c("c", 256, 256);
    KokkosBlas::gemm("N", "N", T(1), a, b, T(0), c);
  }
  if (have) sched_setaffinity(0, sizeof bound, &bound);
}
#endif

void register_all(Harness& h) {
#if defined(KAPI_BENCH_OPENBLAS_CONTROL)
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)  // (without Kokkos Kernels there is no BLAS anchor)
  if (gemm_anchor() == Gemm::kokkos_kernels_vendor) start_blas_threads_unbound(host_threads());
#endif
  if (openblas_get_num_threads)
    benchmark::AddCustomContext("openblas_threads", std::to_string(openblas_get_num_threads()) +
                                                        " (started unbound: they float over the cores)");
  if (openblas_get_corename) benchmark::AddCustomContext("openblas_core", openblas_get_corename());
  if (openblas_get_config) benchmark::AddCustomContext("openblas_config", openblas_get_config());
#endif
  benchmark::AddCustomContext("anchor", gemm_description());
  benchmark::AddCustomContext("raw_kokkos", "raw-teampolicy-t16: " + matmul_bench::raw_description());
  if constexpr (kapi::is_host_execution_space_v<Space>) {  // what the host's SIMD width chose
    using F = matmul::TunedShape<float, true>;
    using D = matmul::TunedShape<double, true>;
    benchmark::AddCustomContext(
        "tuned_host_shape", std::to_string(kapi::host_simd_bytes) + "-byte SIMD registers: fp32 " +
                                std::to_string(F::TM) + "x" + std::to_string(F::TN) + " per work-item in " +
                                std::to_string(F::BM) + "x" + std::to_string(F::BN) + " blocks, fp64 " +
                                std::to_string(D::TM) + "x" + std::to_string(D::TN) + " in " + std::to_string(D::BM) +
                                "x" + std::to_string(D::BN));
  }
  const Space space = h.space();
  const Cache data = h.make_cache<Data>([space](std::size_t n) { return make_data<T>(space, n); });
  [[maybe_unused]] const CacheOf<double> data64 =
      h.make_cache<DataOf<double>>([space](std::size_t n) { return make_data<double>(space, n); });
  const auto cublas = std::make_shared<Cublas>(h);
  // The app's anchor variant (KokkosBlas::gemm) is timed by the anchor case, under its name.
  const std::string anchor_name = matmul::variant_table.name_of(kapi_apps::Kind::anchor);
  for (std::size_t n : h.sweep(default_sizes(h))) {
    // A case that times run(space, A, B, C, Completion::queued) on the matrices of `cache`
    // at this size: queued on the space and not waited for inside the timed call, as the
    // cuBLAS anchors are, so that on CUDA both are timed on the GPU's timeline by the
    // events around them (common/timing.hpp) and neither pays a fence's round trip.
    const auto add_run = [&](const auto& cache, const std::string& name, Role role, auto run) {
      Case c = base(h, cache, n, name, role);
      c.bind = [space, cache, n, run] {
        auto d = cache->get(n);
        using E = typename std::decay_t<decltype(*d)>::value_type;
        const matmul::ConstMatrix<E, Space> a = d->a, b = d->b;
        return std::function<void()>([space, d, a, b, run] { run(space, a, b, d->c, matmul::Completion::queued); });
      };
      h.add(c);
    };
    Case anchor = base(h, data, n, gemm_anchor() == Gemm::cublas ? "cublas" : anchor_name, Role::anchor);
    anchor.bind = [cublas, space, data, n] { return gemm_op(cublas, space, data->get(n)); };
    h.add(anchor);

    Case raw = base(h, data, n, "raw-teampolicy-t16", Role::raw_kokkos);
    raw.bind = [space, data, n] {
      auto d = data->get(n);
      return std::function<void()>([space, d] { matmul_bench::raw_sliding_window<T>(space, d->a, d->b, d->c, 16); });
    };
    h.add(raw);

#if defined(KOKKOS_ENABLE_CUDA) && defined(KAPI_BENCH_HAVE_CUBLAS)
    if (is_cuda_space<Space>) {  // the tensor-core anchors, in the math mode of each tuned-* variant
      Case tf32 = base(h, data, n, "cublas-tf32", Role::library);
      tf32.bind = [cublas, space, data, n] {
        auto d = data->get(n);
        cublasHandle_t hd = cublas->handle();
        return std::function<void()>([hd, space, d] {
          cublas_gemm_ex(hd, space, d->a.data(), d->b.data(), d->c, d->n, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32);
        });
      };
      h.add(tf32);
      Case bf16 = base(h, data, n, "cublas-bf16", Role::library);
      bf16.bind = [cublas, space, data, n] {
        auto d = data->get(n);
        auto x = convert<kapi::bfloat16>(space, *d);
        cublasHandle_t hd = cublas->handle();
        return std::function<void()>([hd, space, d, x] {
          cublas_gemm_ex(hd, space, x->a.data(), x->b.data(), d->c, d->n, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
        });
      };
      h.add(bf16);
      Case fp16 = base(h, data, n, "cublas-fp16", Role::library);
      fp16.bind = [cublas, space, data, n] {
        auto d = data->get(n);
        auto x = convert<kapi::half>(space, *d);
        cublasHandle_t hd = cublas->handle();
        return std::function<void()>([hd, space, d, x] {
          cublas_gemm_ex(hd, space, x->a.data(), x->b.data(), d->c, d->n, CUDA_R_16F, CUBLAS_COMPUTE_32F);
        });
      };
      h.add(fp16);
      // Shapes of the tensor-core kernel beside the defaults (16, two groups per SM):
      // one group per SM (no register cap), and BK = 32.
      const auto shaped = [&](const char* name, auto run) { add_run(data, name, Role::kapi, run); };
      // The portable joint_matrix kernel (mma.sync), where tuned-tf32/-bf16 take the wgmma
      // path (matmul/tensor_cores_sm90.hpp); the same kernels as those on other GPUs.
      shaped("tuned-tf32-mma",
             [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c, matmul::Completion done) {
               matmul::multiply_joint_matrix<kapi::precision::tf32>(s, a, b, c, done);
             });
      shaped("tuned-bf16-mma",
             [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c, matmul::Completion done) {
               matmul::multiply_joint_matrix<kapi::bfloat16>(s, a, b, c, done);
             });
      shaped("tuned-tf32-g1", [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c,
                                 matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<kapi::precision::tf32,
                                             matmul::JointShape<kapi::precision::tf32, false, 16, 1>>(s, a, b, c, done);
      });
      shaped("tuned-bf16-g1",
             [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c, matmul::Completion done) {
               matmul::multiply_joint_matrix_shaped<kapi::bfloat16, matmul::JointShape<kapi::bfloat16, false, 16, 1>>(
                   s, a, b, c, done);
             });
      // BK = 32: 72 KiB of double-buffered tiles per group, beyond Kokkos 3.4's 40 KiB
      // team scratch (kapi's own CUDA launch puts them in shared memory).
      shaped("tuned-tf32-k32", [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c,
                                  matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<kapi::precision::tf32,
                                             matmul::JointShape<kapi::precision::tf32, false, 32, 2>>(s, a, b, c, done);
      });
      shaped("tuned-tf32-k32-g1", [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c,
                                     matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<kapi::precision::tf32,
                                             matmul::JointShape<kapi::precision::tf32, false, 32, 1>>(s, a, b, c, done);
      });
      // Tiles copied asynchronously (cp.async), stages - 1 steps ahead.
      shaped("tuned-tf32-async4-k16",
             [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c, matmul::Completion done) {
               matmul::multiply_joint_matrix_shaped<kapi::precision::tf32,
                                                    matmul::JointShape<kapi::precision::tf32, false, 16, 2, 4>>(
                   s, a, b, c, done);
             });
      shaped("tuned-bf16-k32",
             [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c, matmul::Completion done) {
               matmul::multiply_joint_matrix_shaped<kapi::bfloat16, matmul::JointShape<kapi::bfloat16, false, 32, 2>>(
                   s, a, b, c, done);
             });
      shaped("tuned-bf16-k32-g1",
             [](const Space& s, const ConstMatrix& a, const ConstMatrix& b, const Matrix& c, matmul::Completion done) {
               matmul::multiply_joint_matrix_shaped<kapi::bfloat16, matmul::JointShape<kapi::bfloat16, false, 32, 1>>(
                   s, a, b, c, done);
             });

      // fp64 on the matrix units, anchored to cublasDgemm: tuned-fp64 (one group per SM,
      // cp.async copies 3 stages deep, fragments of K = 16; steps of 32 where the device
      // holds their tiles, -k32-async3-f16, else of 16, -k16-async3-f16) and shapes beside
      // it: tiles through registers (-regs), fragments of K = 4 (-async3) or 8 (-f8,
      // -async3-f8), 4 stages of 8 (-async4-k8), 16 sub-groups of 64×16 (-w16, and with the
      // default's copies and fragments -w16-async3-f16), two stages of 32, which fit a
      // group's 164 KiB on sm_80 (-k32-async2-f16, -k32-async2-f8).
      Case dgemm = base(h, data64, n, "cublas-dgemm", Role::anchor);
      dgemm.bind = [cublas, space, data64, n] {
        auto d = data64->get(n);
        cublasHandle_t hd = cublas->handle();
        return std::function<void()>([hd, space, d] { cublas_dgemm(hd, space, d->a, d->b, d->c); });
      };
      h.add(dgemm);
      using Matrix64 = matmul::Matrix<double, Space>;
      using ConstMatrix64 = matmul::ConstMatrix<double, Space>;
      const auto fp64 = [&](const char* name, auto run) { add_run(data64, name, Role::kapi, run); };
      fp64("tuned-fp64", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b, const Matrix64& c,
                            matmul::Completion done) { matmul::multiply<double>("tuned-fp64", s, a, b, c, done); });
      fp64("tuned-fp64-regs", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b, const Matrix64& c,
                                 matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 16, 1>>(s, a, b, c, done);
      });
      fp64("tuned-fp64-async3", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b, const Matrix64& c,
                                   matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 16, 1, 3>>(s, a, b, c, done);
      });
      fp64("tuned-fp64-async4-k8", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b, const Matrix64& c,
                                      matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 8, 1, 4>>(s, a, b, c, done);
      });
      fp64("tuned-fp64-async3-f8", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b, const Matrix64& c,
                                      matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 16, 1, 3, 32, 8>>(s, a, b, c,
                                                                                                         done);
      });
      fp64("tuned-fp64-f8", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b, const Matrix64& c,
                               matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 16, 1, 0, 32, 8>>(s, a, b, c,
                                                                                                         done);
      });
      fp64("tuned-fp64-k16-async3-f16", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b,
                                           const Matrix64& c, matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::DefaultJointShape<double, false>::type>(s, a, b, c, done);
      });
      fp64("tuned-fp64-w16-async3-f16", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b,
                                           const Matrix64& c, matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 16, 1, 3, 16, 16>>(s, a, b, c,
                                                                                                          done);
      });
      fp64("tuned-fp64-k32-async3-f16", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b,
                                           const Matrix64& c, matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::LongStepsFp64Shape>(s, a, b, c, done);
      });
      fp64("tuned-fp64-k32-async2-f16", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b,
                                           const Matrix64& c, matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 32, 1, 2, 32, 16>>(s, a, b, c,
                                                                                                          done);
      });
      fp64("tuned-fp64-k32-async2-f8", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b,
                                          const Matrix64& c, matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 32, 1, 2, 32, 8>>(s, a, b, c,
                                                                                                         done);
      });
      fp64("tuned-fp64-w16", [](const Space& s, const ConstMatrix64& a, const ConstMatrix64& b, const Matrix64& c,
                                matmul::Completion done) {
        matmul::multiply_joint_matrix_shaped<double, matmul::JointShape<double, false, 16, 1, 0, 16>>(s, a, b, c, done);
      });
    }
#endif
    for_each_measured_variant(matmul::variant_table, [&](const auto& v, Role role) {
      if (!matmul::takes_float(std::string(v.name))) return;  // tuned-fp64: the f64 cases above (CUDA)
      add_run(data, std::string(v.name), role, v.run);
    });
  }
}

}  // namespace

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "matmul", register_all); }
