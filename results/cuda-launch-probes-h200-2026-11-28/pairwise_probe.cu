// SPDX-License-Identifier: Apache-2.0
// Probe: the pairwise reduction's passes on the GPU, one level per pass (kapi's now) and
// L levels fused per pass (the same additions in the same order), against CUB's sum.
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

// value of element i after `levels` levels from live length m (recursively: same order as one level per pass)
template <int L>
struct Level {
  __device__ static float at(const float* in, int64_t i, int64_t m) {
    // level-L value at i: Y(i) + Y(i + h) where Y is level L-1, over live length mL
    const int64_t m1 = Level<L - 1>::len(m), h = (m1 + 1) / 2;
    const float a = Level<L - 1>::at(in, i, m);
    return i + h < m1 ? a + Level<L - 1>::at(in, i + h, m) : a;
  }
  __host__ __device__ static int64_t len(int64_t m) { return (Level<L - 1>::len(m) + 1) / 2; }
};
template <>
struct Level<0> {
  __device__ static float at(const float* in, int64_t i, int64_t) { return in[i]; }
  __host__ __device__ static int64_t len(int64_t m) { return m; }
};

template <int L, int E>
__global__ void __launch_bounds__(256) pass(const float* in, float* out, int64_t m) {
  const int64_t outlen = Level<L>::len(m), items = int64_t(gridDim.x) * 256;
  for (int64_t base = int64_t(blockIdx.x) * 256 + threadIdx.x; base < outlen; base += items * E) {
    float s[E];
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const int64_t i = base + e * items;
      if (i < outlen) s[e] = Level<L>::at(in, i, m);
    }
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const int64_t i = base + e * items;
      if (i < outlen) out[i] = s[e];
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
  for (int64_t n : {int64_t(1) << 26, int64_t(1) << 28}) {
    float *x, *w, *r;
    CK(cudaMalloc(&x, n * 4));
    CK(cudaMalloc(&w, n * 4));
    CK(cudaMalloc(&r, 4));
    std::vector<float> h(n);
    for (int64_t i = 0; i < n; ++i) h[i] = float((i * 7919) % 201) - 100.f;
    CK(cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice));
    void* tmp = nullptr;
    size_t tmpb = 0;
    cub::DeviceReduce::Sum(tmp, tmpb, x, r, int(n));
    CK(cudaMalloc(&tmp, tmpb));
    auto time = [&](auto run) {
      std::vector<float> t;
      for (int k = 0; k < 9; ++k) {
        cudaEventRecord(e0);
        run();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      return t[4] * 1e-3;
    };
    const double tc = time([&] { cub::DeviceReduce::Sum(tmp, tmpb, x, r, int(n)); });
    const double cub_bw = n * 4 / tc;
    printf("n=2^%d CUB %.0f GB/s\n", n == (int64_t(1) << 26) ? 26 : 28, cub_bw / 1e9);
    auto launch = [&](auto kern, const float* in, float* out, int64_t m, int64_t outlen, int E, int64_t maxw) {
      const int64_t full = cdiv(outlen, 256);
      const int64_t blocks = std::clamp(full / E, std::min(full, 8 * wave), maxw * wave);
      kern<<<unsigned(std::max<int64_t>(1, blocks)), 256>>>(in, out, m);
    };
    float ref = 0;
    for (int L : {1, 2, 3, 4})
      for (int E : {1, 4})
        for (int64_t maxw : {16, 128}) {
          double bytes = 0;
          float got = 0;
          auto run = [&] {
            int64_t m = n;
            const float* in = x;
            bytes = 0;
            while (m > 1) {
              int lv = L;
              int64_t outlen = m;
              for (int q = 0; q < lv; ++q) outlen = (outlen + 1) / 2;
              bytes += double(m) * 4 + double(outlen) * 4;
              auto pick = [&](auto kl, auto ke) {
                constexpr int LL = decltype(kl)::value, EE = decltype(ke)::value;
                launch(pass<LL, EE>, in, w, m, Level<LL>::len(m), EE, maxw);
              };
              if (L == 1 && E == 1) pick(std::integral_constant<int, 1>{}, std::integral_constant<int, 1>{});
              if (L == 1 && E == 4) pick(std::integral_constant<int, 1>{}, std::integral_constant<int, 4>{});
              if (L == 2 && E == 1) pick(std::integral_constant<int, 2>{}, std::integral_constant<int, 1>{});
              if (L == 2 && E == 4) pick(std::integral_constant<int, 2>{}, std::integral_constant<int, 4>{});
              if (L == 3 && E == 1) pick(std::integral_constant<int, 3>{}, std::integral_constant<int, 1>{});
              if (L == 3 && E == 4) pick(std::integral_constant<int, 3>{}, std::integral_constant<int, 4>{});
              if (L == 4 && E == 1) pick(std::integral_constant<int, 4>{}, std::integral_constant<int, 1>{});
              if (L == 4 && E == 4) pick(std::integral_constant<int, 4>{}, std::integral_constant<int, 4>{});
              in = w;
              m = outlen;
            }
          };
          const double t = time(run);
          CK(cudaMemcpy(&got, w, 4, cudaMemcpyDeviceToHost));
          if (L == 1 && E == 1 && maxw == 16) ref = got;
          const double bound = bytes / cub_bw;
          printf(
              "  levels/pass %d, elements %d, max waves %3ld: %.1f us, traffic %.2fn, %.1f%% of its traffic bound, "
              "%s\n",
              L, E, long(maxw), t * 1e6, bytes / 4 / n, 100 * bound / t, got == ref ? "same sum" : "DIFFERENT SUM");
        }
    cudaFree(x);
    cudaFree(w);
    cudaFree(r);
    cudaFree(tmp);
  }
}
