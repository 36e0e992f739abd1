// SPDX-License-Identifier: Apache-2.0
#pragma once
// The frame every app program shares: --help, Kokkos initialisation, the choice of
// execution space (--space), and exit statuses: 0 every check passed, 1 a verification
// failed, 2 the command line or a launch was rejected.
#include <cctype>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include <Kokkos_Core.hpp>
#include <kapi/errors.hpp>
#include <kapi/execution_space.hpp>

#include "args.hpp"

namespace kapi_apps {

template <class T>
struct Tag {
  using type = T;
};

/// Calls f(Tag<Space>{}) for every execution space the build enables
/// (kapi::enabled_execution_spaces, device spaces first), as types only: an instance of
/// a device space may not be made before Kokkos is initialised.
template <class F, class... S>
void for_each_space(kapi::execution_space_list<S...>, const F& f) {
  (f(Tag<S>{}), ...);
}
template <class F>
void for_each_space(const F& f) {
  for_each_space(kapi::enabled_execution_spaces{}, f);
}

inline std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Names of the enabled spaces, for --help.
inline std::string space_names() {
  std::string names;
  for_each_space([&](auto tag) { names += (names.empty() ? "" : ", ") + lower(decltype(tag)::type::name()); });
  return names;
}

/// Throws usage_error unless `name` is "" (Kokkos' default space) or an enabled space.
inline void check_space(const std::string& name) {
  bool known = name.empty();
  for_each_space([&](auto tag) { known = known || lower(decltype(tag)::type::name()) == lower(name); });
  if (!known)
    throw usage_error("--space: '" + name + "' is not enabled in this build (enabled: " + space_names() + ")");
}

/// Calls f(space) with the execution space named `name` ("" = Kokkos' default space).
template <class F>
int with_space(const std::string& name, F&& f) {
  check_space(name);
  if (name.empty()) return f(Kokkos::DefaultExecutionSpace());
  int status = -1;
  for_each_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    if (status < 0 && lower(Space::name()) == lower(name)) status = f(Space());
  });
  return status;
}

/// "OpenMP (2 threads)": the space and how much of the machine it uses.
template <class ExecSpace>
std::string describe(const ExecSpace& space) {
  return std::string(ExecSpace::name()) + " (concurrency " + std::to_string(space.concurrency()) + ")";
}

/// Runs an app: prints `usage` for --help; otherwise parse(args) reads and checks the
/// options (before Kokkos starts, so a bad command line fails fast) and returns the
/// work, which runs with Kokkos initialised and returns the exit status. Errors print
/// one line and return 2.
template <class Parse>
int run_program(int argc, char** argv, const std::string& usage, Parse&& parse) {
  const std::string program = argc > 0 ? argv[0] : "app";
  try {
    Args args(argc, argv);
    if (args.flag("help")) {
      std::printf("%s", usage.c_str());
      return 0;
    }
    auto work = parse(args);
    args.expect_no_more();
    Kokkos::ScopeGuard kokkos(args.kokkos_argc(), args.kokkos_argv());
    return work();
  } catch (const usage_error& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
  } catch (const kapi::launch_error& e) {
    std::fprintf(stderr, "%s: launch rejected: %s\n", program.c_str(), e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program.c_str(), e.what());
  }
  return 2;
}

}  // namespace kapi_apps
