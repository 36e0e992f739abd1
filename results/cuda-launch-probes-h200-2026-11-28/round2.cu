// SPDX-License-Identifier: Apache-2.0
// Probe 2: work-group launch orders for init3d's nd-range kernel, a 7-point stencil under
// the 3-d range launch, and the pairwise pass with block-contiguous elements.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cub/cub.cuh>
#define CK(x)                                        \
  do {                                               \
    cudaError_t e = (x);                             \
    if (e != cudaSuccess) {                          \
      printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      exit(1);                                       \
    }                                                \
  } while (0)
static inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
struct Init {
  double* a;
  int64_t n0, n1, n2;
  double c;
  __device__ void operator()(int64_t i, int64_t j, int64_t k) const {
    if (i < n0 && j < n1 && k < n2) a[(i * n1 + j) * n2 + k] = c * double(i) * double(j) * double(k);
  }
};
// groups of 1x8x32, threadIdx.y = local linear id (as kapi), group ids (gi, gj, gk) k fastest
__device__ inline void run_group(const Init& f, unsigned g, unsigned gj_n, unsigned gk_n) {
  const unsigned gk = g % gk_n, r = g / gk_n, gj = r % gj_n, gi = r / gj_n;
  const unsigned me = threadIdx.y, lk = me % 32, lj = me / 32;
  f(gi, int64_t(gj) * 8 + lj, int64_t(gk) * 32 + lk);
}
__global__ void __launch_bounds__(256) groups_stride(Init f, unsigned groups, unsigned gj_n, unsigned gk_n) {
  for (unsigned g = blockIdx.x; g < groups; g += gridDim.x) run_group(f, g, gj_n, gk_n);
}
__global__ void __launch_bounds__(256)
    groups_chunk(Init f, unsigned groups, unsigned gj_n, unsigned gk_n, unsigned per) {
  const unsigned g0 = blockIdx.x * per, g1 = min(groups, g0 + per);
  for (unsigned g = g0; g < g1; ++g) run_group(f, g, gj_n, gk_n);
}
// planes: the block takes one (gj, gk) tile and `per` consecutive gi
__global__ void __launch_bounds__(256)
    groups_planes(Init f, unsigned groups, unsigned gj_n, unsigned gk_n, unsigned per) {
  const unsigned tiles = gj_n * gk_n, tile = blockIdx.x % tiles, gi0 = (blockIdx.x / tiles) * per;
  const unsigned gi_n = groups / tiles;
  for (unsigned gi = gi0; gi < min(gi_n, gi0 + per); ++gi) run_group(f, gi * tiles + tile, gj_n, gk_n);
}
// stencil: out(i,j,k) = c0*in + c1*(6 neighbours), interior only
struct Stencil {
  const double* in;
  double* out;
  int64_t n;
  __device__ void operator()(int64_t i, int64_t j, int64_t k) const {
    if (i < 1 || j < 1 || k < 1 || i >= n - 1 || j >= n - 1 || k >= n - 1) return;
    const int64_t s = n * n, x = (i * n + j) * n + k;
    out[x] = 0.4 * in[x] + 0.1 * (in[x - 1] + in[x + 1] + in[x - n] + in[x + n] + in[x - s] + in[x + s]);
  }
};
template <class F>
__global__ void __launch_bounds__(256) range3d_stride(F f, int64_t n0, int64_t n1, int64_t n2) {
  const int64_t k = int64_t(blockIdx.x) * 32 + threadIdx.x;
  if (k >= n2) return;
  for (int64_t i = blockIdx.z; i < n0; i += gridDim.z)
    for (int64_t j = int64_t(blockIdx.y) * 8 + threadIdx.y; j < n1; j += int64_t(gridDim.y) * 8) f(i, j, k);
}
template <class F>
__global__ void __launch_bounds__(256) range3d_chunk(F f, int64_t n0, int64_t n1, int64_t n2, int64_t per) {
  const int64_t k = int64_t(blockIdx.x) * 32 + threadIdx.x;
  if (k >= n2) return;
  const int64_t j = int64_t(blockIdx.y) * 8 + threadIdx.y;
  if (j >= n1) return;
  const int64_t i0 = int64_t(blockIdx.z) * per, i1 = min(n0, i0 + per);
  for (int64_t i = i0; i < i1; ++i) f(i, j, k);
}
// pairwise pass, one level; E elements per thread: grid-stride (kapi's now) or block-contiguous
template <int E>
__global__ void __launch_bounds__(256) pw_grid(const float* in, float* out, int64_t m) {
  const int64_t half = (m + 1) / 2, items = int64_t(gridDim.x) * 256;
  for (int64_t b = int64_t(blockIdx.x) * 256 + threadIdx.x; b < half; b += items * E) {
    float s[E];
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const int64_t i = b + e * items;
      if (i < half) s[e] = i + half < m ? in[i] + in[i + half] : in[i];
    }
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const int64_t i = b + e * items;
      if (i < half) out[i] = s[e];
    }
  }
}
template <int E>
__global__ void __launch_bounds__(256) pw_block(const float* in, float* out, int64_t m) {
  const int64_t half = (m + 1) / 2;
  for (int64_t b = int64_t(blockIdx.x) * 256 * E + threadIdx.x; b < half; b += int64_t(gridDim.x) * 256 * E) {
    float s[E];
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const int64_t i = b + e * 256;
      if (i < half) s[e] = i + half < m ? in[i] + in[i + half] : in[i];
    }
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const int64_t i = b + e * 256;
      if (i < half) out[i] = s[e];
    }
  }
}
int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int64_t wave = int64_t(p.multiProcessorCount) * 2048 / 256;
  printf("device %s, %d SMs\n", p.name, p.multiProcessorCount);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  auto time = [&](auto run) {
    std::vector<float> t;
    for (int k = 0; k < 7; ++k) {
      cudaEventRecord(e0);
      run();
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    CK(cudaGetLastError());
    return t[3] * 1e-3;
  };
  for (int64_t N : {200, 600, 1000}) {
    const int64_t n = N * N * N;
    double* a;
    CK(cudaMalloc(&a, n * 8));
    const double ms = time([&] { cudaMemsetAsync(a, 0, n * 8); });
    printf("init3d nd-range 1x8x32, N=%ld: memset %.0f GB/s\n", long(N), n * 8 / ms / 1e9);
    Init f{a, N, N, N, 1e-4};
    const unsigned gk = cdiv(N, 32), gj = cdiv(N, 8), groups = unsigned(N) * gj * gk;
    auto rep = [&](const char* s, double t) { printf("  %-44s %5.1f%% of memset\n", s, 100 * ms / t); };
    for (int64_t per : {4, 8, 32, 128}) {
      char s[80];
      snprintf(s, 80, "group-stride, ~%ld groups/block (waves<=128)", long(per));
      const int64_t blocks = std::min<int64_t>(groups, std::clamp<int64_t>(groups / per, 8 * wave, 128 * wave));
      rep(s, time([&] { groups_stride<<<unsigned(blocks), dim3(1, 256)>>>(f, groups, gj, gk); }));
    }
    for (int64_t per : {1, 2, 4, 8, 32}) {
      char s[80];
      snprintf(s, 80, "group-chunk, %ld consecutive groups/block", long(per));
      rep(s, time([&] { groups_chunk<<<unsigned(cdiv(groups, per)), dim3(1, 256)>>>(f, groups, gj, gk, per); }));
    }
    for (int64_t per : {2, 4, 8}) {
      char s[80];
      snprintf(s, 80, "group-planes, %ld planes/block", long(per));
      rep(s, time([&] { groups_planes<<<unsigned(gj * gk * cdiv(N, per)), dim3(1, 256)>>>(f, groups, gj, gk, per); }));
    }
    cudaFree(a);
  }
  for (int64_t N : {256, 512}) {
    const int64_t n = N * N * N;
    double *in, *out;
    CK(cudaMalloc(&in, n * 8));
    CK(cudaMalloc(&out, n * 8));
    cudaMemset(in, 0, n * 8);
    const double ms = time([&] { cudaMemsetAsync(out, 0, n * 8); });
    const double bw = n * 8 / ms;
    printf("stencil N=%ld: memset %.0f GB/s; cells: GB/s of 16 B/point (%% of memset)\n", long(N), bw / 1e9);
    Stencil s{in, out, N};
    const int64_t gx = cdiv(N, 32), gy = cdiv(N, 8);
    for (int64_t waves : {8, 32, 128}) {
      const int64_t blocks = std::clamp(gx * gy * N / 4, 8 * wave, waves * wave);
      const unsigned gz = unsigned(std::min<int64_t>(N, std::max<int64_t>(1, blocks / (gx * gy))));
      const double t = time([&] { range3d_stride<<<dim3(gx, gy, gz), dim3(32, 8)>>>(s, N, N, N); });
      printf("  range3d stride z %4u: %6.0f GB/s (%.1f%%)\n", gz, n * 16 / t / 1e9, 100 * n * 16 / t / bw);
    }
    for (int64_t per : {1, 2, 4, 8, 16}) {
      const double t = time([&] { range3d_chunk<<<dim3(gx, gy, cdiv(N, per)), dim3(32, 8)>>>(s, N, N, N, per); });
      printf("  range3d chunk %2ld planes: %6.0f GB/s (%.1f%%)\n", long(per), n * 16 / t / 1e9, 100 * n * 16 / t / bw);
    }
    cudaFree(in);
    cudaFree(out);
  }
  for (int64_t n : {int64_t(1) << 26, int64_t(1) << 28}) {
    float *x, *w, *r;
    CK(cudaMalloc(&x, n * 4));
    CK(cudaMalloc(&w, n * 4));
    CK(cudaMalloc(&r, 4));
    cudaMemset(x, 0, n * 4);
    void* tmp = nullptr;
    size_t tmpb = 0;
    cub::DeviceReduce::Sum(tmp, tmpb, x, r, int(n));
    CK(cudaMalloc(&tmp, tmpb));
    const double tc = time([&] { cub::DeviceReduce::Sum(tmp, tmpb, x, r, int(n)); });
    const double cub_bw = n * 4 / tc;
    printf("pairwise passes down to 4096, n=2^%d: CUB %.0f GB/s; %% of the 3n traffic bound\n",
           n == (int64_t(1) << 26) ? 26 : 28, cub_bw / 1e9);
    auto passes = [&](auto kern, int E, int64_t maxw) {
      int64_t m = n;
      const float* in = x;
      double bytes = 0;
      while (m > 4096) {
        const int64_t half = (m + 1) / 2, full = cdiv(half, 256);
        const int64_t blocks = std::clamp<int64_t>(full / E, std::min<int64_t>(full, 8 * wave), maxw * wave);
        kern<<<unsigned(std::max<int64_t>(1, blocks)), 256>>>(in, w, m);
        in = w;
        bytes += 4.0 * (m + half);
        m = half;
      }
      return bytes;
    };
    for (int64_t maxw : {16, 128, 100000}) {
      double bytes = 0;
      double t = time([&] { bytes = passes(pw_grid<4>, 4, maxw); });
      printf("  grid-stride E=4 waves<=%-6ld %5.1f%%\n", long(maxw), 100 * bytes / cub_bw / t);
      t = time([&] { bytes = passes(pw_block<4>, 4, maxw); });
      printf("  block-chunk E=4 waves<=%-6ld %5.1f%%\n", long(maxw), 100 * bytes / cub_bw / t);
      t = time([&] { bytes = passes(pw_block<8>, 8, maxw); });
      printf("  block-chunk E=8 waves<=%-6ld %5.1f%%\n", long(maxw), 100 * bytes / cub_bw / t);
      t = time([&] { bytes = passes(pw_grid<1>, 1, maxw); });
      printf("  grid-stride E=1 waves<=%-6ld %5.1f%%\n", long(maxw), 100 * bytes / cub_bw / t);
    }
    cudaFree(x);
    cudaFree(w);
    cudaFree(r);
    cudaFree(tmp);
  }
}
