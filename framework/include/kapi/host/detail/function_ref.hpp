// SPDX-License-Identifier: Apache-2.0
#pragma once
// FunctionRef<Arg>: a reference to a callable f(Arg) with its type erased, a pointer to f
// and to one function that calls it; f must outlive it. The host engine hands kernels
// through it to code compiled once per space instead of once per kernel (HostGroup::run,
// Kokkos' dispatch of a host launch): per kernel that code was most of a test's compile
// time, for one indirect call per group, context or chunk.

namespace kapi::detail {

template <class Arg>
class FunctionRef {
 public:
  template <class F>
  explicit FunctionRef(const F& f) : f_(&f), call_([](const void* g, Arg a) { (*static_cast<const F*>(g))(a); }) {}
  void operator()(Arg a) const { call_(f_, a); }

 private:
  const void* f_;
  void (*call_)(const void*, Arg);
};

}  // namespace kapi::detail
