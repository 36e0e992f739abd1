// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small helpers for the result checks and the data of the benchmarks.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

namespace kapi_bench {

/// "expected X, got Y" with enough digits to see the difference.
template <class A, class B>
std::string mismatch(const std::string& what, const A& expected, const B& got) {
  std::ostringstream s;
  s.precision(10);
  s << what << ": expected " << expected << ", got " << got;
  return s.str();
}

/// True if `got` equals `expected` within a relative tolerance (and both are finite).
inline bool close(double expected, double got, double rel) {
  if (!std::isfinite(got)) return false;
  return std::fabs(got - expected) <= rel * std::fmax(1.0, std::fabs(expected));
}

/// A small deterministic hash for sampling positions.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace kapi_bench
