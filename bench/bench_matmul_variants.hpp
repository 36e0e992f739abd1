#pragma once
// The matmul app's variants as the benchmark sees them (adapter to apps/matmul).
#include <functional>
#include <matmul/matmul.hpp>
#include <string>
#include <vector>

#include "common/harness.hpp"

namespace matmul_bench {

using T = float;
using Matrix = matmul::Matrix<T, kapi_bench::Space>;
using ConstMatrix = matmul::ConstMatrix<T, kapi_bench::Space>;

/// The app variant that the benchmark's anchor measures (KokkosBlas::gemm): written in
/// bench_matmul.cpp, it runs under the app's name and the app's copy is not run again.
inline const char* anchor_name() { return "kokkos-kernels"; }

struct Variant {
  std::string name;
  std::function<void(const kapi_bench::Space&, const ConstMatrix&, const ConstMatrix&, const Matrix&)> run;
};

/// matmul::variants() without the anchor's.
inline std::vector<Variant> variants() {
  std::vector<Variant> out;
  for (const auto& name : matmul::variants()) {
    if (name == anchor_name()) continue;
    out.push_back({name, [name](const kapi_bench::Space& space, const ConstMatrix& a, const ConstMatrix& b,
                                const Matrix& c) { matmul::multiply<T>(name, space, a, b, c); }});
  }
  return out;
}

}  // namespace matmul_bench
