// SPDX-License-Identifier: Apache-2.0
#pragma once
// Command-line arguments of the app programs: "--name value", "--name=value" and flags;
// arguments starting with --kokkos- are left for Kokkos::initialize.
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace kapi_apps {

/// A bad command line: the program prints the message and exits with status 2.
class usage_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class Args {
 public:
  Args(int argc, char** argv) : program_(argc > 0 ? argv[0] : "app") {
    kokkos_.push_back(argc > 0 ? argv[0] : const_cast<char*>("app"));
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--kokkos-", 0) == 0) {
        kokkos_.push_back(argv[i]);
        continue;
      }
      if (a.rfind("--", 0) != 0 || a.size() < 3) throw usage_error("unexpected argument '" + a + "' (see --help)");
      const auto eq = a.find('=');
      if (eq != std::string::npos) {
        values_[a.substr(2, eq - 2)] = a.substr(eq + 1);
      } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
        values_[a.substr(2)] = argv[++i];
      } else {
        values_[a.substr(2)] = "";
      }
    }
  }

  bool flag(const std::string& name) {
    auto it = values_.find(name);
    if (it == values_.end()) return false;
    if (!it->second.empty()) throw usage_error("--" + name + " takes no value (got '" + it->second + "')");
    values_.erase(it);
    return true;
  }

  std::string text(const std::string& name, const std::string& fallback) {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    if (it->second.empty()) throw usage_error("--" + name + " needs a value");
    std::string v = it->second;
    values_.erase(it);
    return v;
  }

  /// Whether the option is on the command line (and not read yet).
  bool has(const std::string& name) const { return values_.count(name) != 0; }

  /// A count: decimal, or 2^p ("2^24").
  std::uint64_t count(const std::string& name, std::uint64_t fallback) {
    const std::string v = text(name, "");
    return v.empty() ? fallback : parse_count(v, name);
  }

  /// A count in [lo, hi], e.g. one stored in an int.
  std::uint64_t count(const std::string& name, std::uint64_t fallback, std::uint64_t lo, std::uint64_t hi) {
    const std::string v = text(name, "");
    if (v.empty()) return fallback;
    const std::uint64_t n = parse_count(v, name);
    if (n < lo || n > hi)
      throw usage_error("--" + name + ": " + v + " is out of range (expected " + std::to_string(lo) + " to " +
                        std::to_string(hi) + ")");
    return n;
  }

  /// A finite real number (decimal or hexadecimal floating point; no nan or inf).
  double real(const std::string& name, double fallback) {
    const std::string v = text(name, "");
    if (v.empty()) return fallback;
    char* end = nullptr;
    errno = 0;
    const double x = std::strtod(v.c_str(), &end);
    // strtod skips leading white space; a value with it is as malformed as one with trailing.
    if (end == v.c_str() || *end != '\0' || is_space(v[0]))
      throw usage_error("--" + name + ": expected a number, got '" + v + "'");
    if (!std::isfinite(x) || (errno == ERANGE && std::fabs(x) == HUGE_VAL))
      throw usage_error("--" + name + ": expected a finite number, got '" + v + "'");
    return x;
  }

  /// A comma-separated list; empty when the option is absent or "all".
  std::vector<std::string> list(const std::string& name) {
    const std::string v = text(name, "all");
    std::vector<std::string> out;
    if (v == "all") return out;
    std::size_t start = 0;
    while (start <= v.size()) {
      const auto comma = v.find(',', start);
      const std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!item.empty()) out.push_back(item);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return out;
  }

  /// Call after reading every option: anything left over is a mistake.
  void expect_no_more() const {
    if (!values_.empty()) throw usage_error("unknown option --" + values_.begin()->first + " (see --help)");
  }

  /// A count as the command line gives it: decimal digits, or 2^p with p decimal digits
  /// up to 63. Nothing else (no sign, white space, suffix or empty exponent; strtoull
  /// alone would take " -5" as 2^64 - 5), and nothing beyond 2^64 - 1.
  static std::uint64_t parse_count(const std::string& v, const std::string& name) {
    const auto caret = v.find('^');
    if (caret != std::string::npos) {
      std::uint64_t base = 0, p = 0;
      if (!parse_digits(v.substr(0, caret), base) || !parse_digits(v.substr(caret + 1), p) || base != 2 || p > 63)
        throw usage_error("--" + name + ": expected a count or 2^p with p at most 63, got '" + v + "'");
      return std::uint64_t(1) << p;
    }
    if (!v.empty() && v[0] == '-') throw usage_error("--" + name + ": expected a non-negative count, got '" + v + "'");
    std::uint64_t n = 0;
    if (!parse_digits(v, n)) {
      bool digits = !v.empty();
      for (char c : v) digits = digits && c >= '0' && c <= '9';
      if (digits)
        throw usage_error("--" + name + ": " + v + " is too large (a count is at most " + std::to_string(UINT64_MAX) +
                          ")");
      throw usage_error("--" + name + ": expected a count, got '" + v + "'");
    }
    return n;
  }

  /// argc/argv for Kokkos::initialize: the program name and the --kokkos-* arguments.
  int& kokkos_argc() {
    kokkos_argc_ = static_cast<int>(kokkos_.size());
    return kokkos_argc_;
  }
  char** kokkos_argv() { return kokkos_.data(); }
  const std::string& program() const { return program_; }

 private:
  static bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

  /// Decimal digits only, one at least, into a 64-bit value; false otherwise or on overflow.
  static bool parse_digits(const std::string& v, std::uint64_t& out) {
    if (v.empty()) return false;
    std::uint64_t n = 0;
    for (char c : v) {
      if (c < '0' || c > '9') return false;
      if (__builtin_mul_overflow(n, std::uint64_t(10), &n) || __builtin_add_overflow(n, std::uint64_t(c - '0'), &n))
        return false;
    }
    out = n;
    return true;
  }

  std::string program_;
  std::map<std::string, std::string> values_;
  std::vector<char*> kokkos_;
  int kokkos_argc_ = 0;
};

/// Bytes of physical memory on this machine; 0 when it cannot be told.
inline std::uint64_t physical_memory_bytes() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  std::uint64_t bytes = 0;
  if (pages > 0 && page > 0 && !__builtin_mul_overflow(std::uint64_t(pages), std::uint64_t(page), &bytes)) return bytes;
#endif
  return 0;
}

/// "1.5 GiB": a byte count for messages.
inline std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double x = double(bytes);
  int u = 0;
  while (x >= 1024 && u < 6) x /= 1024, ++u;
  char text[64];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", x, units[u]);
  return text;
}

/// A size option as the program read it: its name and value.
struct SizeOption {
  std::string name;
  std::uint64_t value;
};

/// The memory a program's arrays take, built from its size options with every product
/// checked (__builtin_mul_overflow): an element count or byte count past 64 bits, or
/// arrays that together need more than the machine's physical memory (every app holds
/// at least one host copy of each array, so that bound holds on every backend), are a
/// usage_error naming the options and their values; nothing is allocated before.
///   kapi_apps::Footprint f;
///   f.add("A (m x k floats)", {{"m", m}, {"k", k}}, sizeof(float));
///   f.check();
class Footprint {
 public:
  /// limit: the most bytes the arrays may take together (default: physical memory,
  /// and never more than a pointer difference spans).
  explicit Footprint(std::uint64_t limit = default_limit()) : limit_(limit) {}

  static std::uint64_t default_limit() {
    const std::uint64_t span = std::uint64_t(PTRDIFF_MAX), memory = physical_memory_bytes();
    return memory != 0 && memory < span ? memory : span;
  }

  /// The product of the extents `dims` of array `what`; usage_error if it overflows.
  static std::uint64_t elements(const std::string& what, std::initializer_list<SizeOption> dims) {
    std::uint64_t n = 1;
    for (const auto& d : dims)
      if (__builtin_mul_overflow(n, d.value, &n))
        throw usage_error(describe(dims) + ": " + what + " would have 2^64 or more elements");
    return n;
  }

  /// Adds an array of extents `dims` and `bytes_each` bytes per element; returns its
  /// element count. usage_error if the elements or the bytes overflow 64 bits.
  std::uint64_t add(const std::string& what, std::initializer_list<SizeOption> dims, std::uint64_t bytes_each) {
    const std::uint64_t n = elements(what, dims);
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(n, bytes_each, &bytes))
      throw usage_error(describe(dims) + ": " + what + " would take 2^64 or more bytes");
    for (const auto& d : dims) remember(d);
    if (__builtin_add_overflow(total_, bytes, &total_))
      throw usage_error(describe(options_) + ": the arrays would take 2^64 or more bytes");
    arrays_ += (arrays_.empty() ? "" : ", ") + what + " " + format_bytes(bytes);
    return n;
  }

  /// usage_error unless the arrays added so far fit the limit together.
  void check() const {
    if (total_ <= limit_) return;
    throw usage_error(describe(options_) + ": the arrays need " + format_bytes(total_) + " (" + arrays_ +
                      "), more than " + (limit_ == physical_memory_bytes() ? "this machine's " : "the ") +
                      format_bytes(limit_) + " of memory");
  }

  std::uint64_t bytes() const { return total_; }

 private:
  template <class Options>
  static std::string describe(const Options& dims) {
    std::string s;
    for (const auto& d : dims) s += (s.empty() ? "--" : " --") + d.name + " " + std::to_string(d.value);
    return s;
  }
  void remember(const SizeOption& d) {
    for (const auto& o : options_)
      if (o.name == d.name) return;
    options_.push_back(d);
  }

  std::uint64_t limit_, total_ = 0;
  std::vector<SizeOption> options_;
  std::string arrays_;
};

}  // namespace kapi_apps
