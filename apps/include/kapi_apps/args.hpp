#pragma once
// Command-line arguments of the app programs: "--name value", "--name=value" and flags;
// arguments starting with --kokkos- are left for Kokkos::initialize.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

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

  /// A count: decimal, or 2^p ("2^24").
  std::uint64_t count(const std::string& name, std::uint64_t fallback) {
    const std::string v = text(name, "");
    return v.empty() ? fallback : parse_count(v, name);
  }

  /// A real number.
  double real(const std::string& name, double fallback) {
    const std::string v = text(name, "");
    if (v.empty()) return fallback;
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end != '\0') throw usage_error("--" + name + ": expected a number, got '" + v + "'");
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

  static std::uint64_t parse_count(const std::string& v, const std::string& name) {
    char* end = nullptr;
    const auto caret = v.find('^');
    if (caret != std::string::npos) {
      const unsigned long long base = std::strtoull(v.substr(0, caret).c_str(), &end, 10);
      const unsigned long long p = std::strtoull(v.c_str() + caret + 1, &end, 10);
      if (base != 2 || *end != '\0' || p > 62) throw usage_error("--" + name + ": expected a count or 2^p, got '" + v + "'");
      return std::uint64_t(1) << p;
    }
    if (v[0] == '-') throw usage_error("--" + name + ": expected a non-negative count, got '" + v + "'");
    const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    if (end == v.c_str() || *end != '\0') throw usage_error("--" + name + ": expected a count, got '" + v + "'");
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
  std::string program_;
  std::map<std::string, std::string> values_;
  std::vector<char*> kokkos_;
  int kokkos_argc_ = 0;
};

}  // namespace kapi_apps
