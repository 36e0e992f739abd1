// SPDX-License-Identifier: Apache-2.0
#pragma once
// One table per app: every variant's name, a one-line summary, what it is to the
// benchmarks, and how it runs. The app's variant list, its dispatch by name, its --help
// text and the benchmark's registration (bench/bench_<app>.cpp) are all read from it, so
// a variant is added, renamed or dropped in one place.
//
//   struct Naive { template <class... A> void operator()(const A&... a) const { ... } };
//   inline constexpr kapi_apps::VariantTable variant_table{
//       "matmul",
//       kapi_apps::variant("naive", "a range kernel, one inner product per element", kapi_apps::Kind::kapi, Naive{}),
//       ...};
//   variant_table.names();                                    // {"naive", ...}
//   variant_table.visit(name, [&](const auto& v) { v.run(space, a, b, c); });
//
// `run` is a stateless function object (each app decides its signature); every entry
// has its own type, so the table is a tuple and visiting it calls the entry's own code.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace kapi_apps {

/// What a variant is, in the benchmarks' words (their labels):
///   kapi        framework code: the variants the benchmarks measure
///   anchor      the vendor library or plainest code: the benchmark's anchor runs it
///   raw_kokkos  the same computation written on plain Kokkos: the benchmark's
///               raw-Kokkos twin runs it
///   library     another library's version, shown for reference
enum class Kind { kapi, anchor, raw_kokkos, library };

template <class Run>
struct Variant {
  std::string_view name;
  std::string_view summary;  // one line for --help
  Kind kind;
  Run run;                // the variant's code
  bool available = true;  // false where this build lacks what it needs (e.g. Kokkos Kernels)
};

template <class Run>
constexpr Variant<Run> variant(std::string_view name, std::string_view summary, Kind kind, Run run,
                               bool available = true) {
  return Variant<Run>{name, summary, kind, run, available};
}

template <class... Runs>
class VariantTable {
 public:
  constexpr VariantTable(std::string_view app, Variant<Runs>... entries) : app_(app), entries_(entries...) {}

  std::string_view app() const { return app_; }

  /// Calls f(entry) for every entry, available or not, in the table's order.
  template <class F>
  void for_each(F&& f) const {
    std::apply([&f](const auto&... v) { (f(v), ...); }, entries_);
  }

  /// Calls f(entry) for the available entry called `name`; false if there is none.
  template <class F>
  bool visit(std::string_view name, F&& f) const {
    bool found = false;
    for_each([&](const auto& v) {
      if (!found && v.available && v.name == name) {
        found = true;
        f(v);
      }
    });
    return found;
  }

  /// The variants this build provides, in the order the program runs them.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for_each([&out](const auto& v) {
      if (v.available) out.emplace_back(v.name);
    });
    return out;
  }

  bool has(std::string_view name) const {
    return visit(name, [](const auto&) {});
  }

  /// The name of the first available entry of kind `kind` ("" if there is none).
  std::string name_of(Kind kind) const {
    std::string out;
    for_each([&](const auto& v) {
      if (out.empty() && v.available && v.kind == kind) out = std::string(v.name);
    });
    return out;
  }

  /// Throws std::invalid_argument ("<app>: unknown variant 'x'; this build has a, b")
  /// unless this build has the variant `name`.
  void check(const std::string& name) const {
    if (has(name)) return;
    std::string known;
    for (const auto& v : names()) known += (known.empty() ? "" : ", ") + v;
    throw std::invalid_argument(std::string(app_) + ": unknown variant '" + name + "'; this build has " + known);
  }

  /// The --help lines: one per entry, "  name   summary", summaries wrapped at `width`
  /// columns; an entry this build lacks is marked so.
  std::string help(std::size_t width = 88) const {
    std::size_t widest = 0;
    for_each([&widest](const auto& v) { widest = v.name.size() > widest ? v.name.size() : widest; });
    const std::size_t indent = 2 + widest + 2;
    std::string out;
    for_each([&](const auto& v) {
      std::string summary(v.summary);
      if (!v.available) summary += " [not in this build]";
      std::string line = "  " + std::string(v.name) + std::string(indent - 2 - v.name.size(), ' ');
      out += wrap(line, summary, indent, width);
    });
    return out;
  }

 private:
  // `first` followed by the words of `text`, continued on lines indented by `indent`.
  static std::string wrap(std::string first, const std::string& text, std::size_t indent, std::size_t width) {
    std::string out, line = std::move(first);
    bool empty = true;  // no word on this line yet
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string::npos) end = text.size();
      const std::string word = text.substr(start, end - start);
      start = end + 1;
      if (word.empty()) continue;
      if (!empty && line.size() + 1 + word.size() > width) {
        out += line + "\n";
        line = std::string(indent, ' ');
        empty = true;
      }
      line += (empty ? "" : " ") + word;
      empty = false;
    }
    return out + line + "\n";
  }

  std::string_view app_;
  std::tuple<Variant<Runs>...> entries_;
};

template <class... Runs>
VariantTable(std::string_view, Variant<Runs>...) -> VariantTable<Runs...>;

}  // namespace kapi_apps
