// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one-line machine-readable summary every app prints last:
//   KAPI_SUMMARY {"app":"matmul", ..., "results":[{...}, ...], "pass":true}
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace kapi_apps {

/// A flat JSON object, written in insertion order.
class JsonObject {
 public:
  JsonObject& add(const std::string& key, const std::string& value) { return raw(key, quote(value)); }
  JsonObject& add(const std::string& key, const char* value) { return raw(key, quote(value)); }
  JsonObject& add(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
  JsonObject& add(const std::string& key, double value) {
    if (!std::isfinite(value)) return raw(key, "null");
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", value);
    return raw(key, b);
  }
  template <class I, class = std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>>>
  JsonObject& add(const std::string& key, I value) {
    return raw(key, std::to_string(value));
  }
  JsonObject& add(const std::string& key, const std::vector<JsonObject>& items) {
    std::string s = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) s += ',';  // appended, not `"," + str()`: GCC 12 -Wrestrict false positive in C++20
      s += items[i].str();
    }
    return raw(key, s + "]");
  }
  JsonObject& raw(const std::string& key, const std::string& json) {
    body_ += (body_.empty() ? "" : ",") + quote(key) + ":" + json;
    return *this;
  }
  std::string str() const { return "{" + body_ + "}"; }

  static std::string quote(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') q += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) q += c;
    }
    return q + "\"";
  }

 private:
  std::string body_;
};

inline void print_summary(const JsonObject& summary) { std::printf("KAPI_SUMMARY %s\n", summary.str().c_str()); }

}  // namespace kapi_apps
