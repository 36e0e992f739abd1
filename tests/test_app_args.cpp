// SPDX-License-Identifier: Apache-2.0
// The apps' command-line helpers (kapi_apps/args.hpp): counts are decimal digits or 2^p
// and nothing else, bounded counts and reals reject what their type cannot hold, and
// size products are checked for overflow and against the memory limit. The programs'
// exit status and messages are checked by the CTest cases kapi-*-rejects-*.
#include <kapi_apps/args.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using kapi_apps::Args;
using kapi_apps::Footprint;
using kapi_apps::usage_error;

// The message of the usage_error f throws ("" if none).
template <class F>
std::string rejection(const F& f) {
  try {
    f();
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

Args make_args(std::vector<std::string> words) {
  static std::vector<std::string> keep;  // argv must outlive the Args
  keep = std::move(words);
  keep.insert(keep.begin(), "app");
  static std::vector<char*> argv;
  argv.clear();
  for (auto& w : keep) argv.push_back(w.data());
  return Args(static_cast<int>(argv.size()), argv.data());
}

TEST(AppArgs, CountsAreDigitsOrPowersOfTwo) {
  EXPECT_EQ(Args::parse_count("0", "n"), 0u);
  EXPECT_EQ(Args::parse_count("100003", "n"), 100003u);
  EXPECT_EQ(Args::parse_count("2^24", "n"), std::uint64_t(1) << 24);
  EXPECT_EQ(Args::parse_count("2^0", "n"), 1u);
  EXPECT_EQ(Args::parse_count("2^63", "n"), std::uint64_t(1) << 63);
  EXPECT_EQ(Args::parse_count("18446744073709551615", "n"), UINT64_MAX);
}

TEST(AppArgs, MalformedCountsAreRejectedWithTheOptionAndValue) {
  for (const char* bad : {"2abc^4", "2^", "^4", "3^4", "2^64", "2^-1", "2^ 4", "2^4x", "", "abc", "12x", "1e6", "+5",
                          " 5", "5 ", " -5", "-5", "0x10"}) {
    const std::string v = bad;
    const std::string what = rejection([&] { Args::parse_count(v, "size"); });
    EXPECT_NE(what.find("--size"), std::string::npos) << "'" << v << "': " << what;
    if (!v.empty()) {
      EXPECT_NE(what.find("'" + v + "'"), std::string::npos) << "'" << v << "': " << what;
    }
  }
}

TEST(AppArgs, CountsPast64BitsAreRejected) {
  for (const char* big : {"18446744073709551616", "99999999999999999999", "123456789012345678901234567890"}) {
    const std::string what = rejection([&] { Args::parse_count(big, "size"); });
    EXPECT_NE(what.find(std::string("--size: ") + big + " is too large"), std::string::npos) << what;
  }
}

TEST(AppArgs, BoundedCountsRejectWhatTheTypeCannotHold) {
  {
    auto args = make_args({"--repeat", "4294967297"});  // 2^32 + 1: was truncated to 1 in an int
    EXPECT_NE(rejection([&] {
                args.count("repeat", 10, 1, INT32_MAX);
              }).find("--repeat: 4294967297 is out of range (expected 1 to 2147483647)"),
              std::string::npos);
  }
  {
    auto args = make_args({"--repeat", "0"});
    EXPECT_NE(rejection([&] { args.count("repeat", 10, 1, INT32_MAX); }).find("--repeat: 0 is out of range"),
              std::string::npos);
  }
  auto args = make_args({"--repeat", "2147483647"});
  EXPECT_EQ(args.count("repeat", 10, 1, INT32_MAX), 2147483647u);
  EXPECT_EQ(args.count("absent", 10, 1, INT32_MAX), 10u);
}

TEST(AppArgs, RealsAreFiniteAndWellFormed) {
  for (const char* bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", " 1", "1 ", "x", "1.5.2"}) {
    auto args = make_args({"--c", bad});
    const std::string what = rejection([&] { args.real("c", 0); });
    EXPECT_NE(what.find("--c: expected a"), std::string::npos) << bad << ": " << what;
    EXPECT_NE(what.find(std::string("'") + bad + "'"), std::string::npos) << bad << ": " << what;
  }
  auto args = make_args({"--c", "-2.5e-3", "--d", "1e308", "--e", "0x1p-3"});
  EXPECT_EQ(args.real("c", 0), -2.5e-3);
  EXPECT_EQ(args.real("d", 0), 1e308);
  EXPECT_EQ(args.real("e", 0), 0.125);
}

TEST(AppArgs, SizeProductsOverflowingAreRejectedNamingTheOptions) {
  const std::uint64_t p21 = std::uint64_t(1) << 21, p22 = std::uint64_t(1) << 22;
  EXPECT_NE(rejection([&] {
              Footprint::elements("a", {{"ni", p21}, {"nj", p21}, {"nk", p22}});
            }).find("--ni 2097152 --nj 2097152 --nk 4194304: a would have 2^64 or more elements"),
            std::string::npos);
  Footprint f(UINT64_MAX);
  EXPECT_NE(rejection([&] {
              f.add("x", {{"n", std::uint64_t(1) << 62}}, 4);
            }).find("--n 4611686018427387904: x would take 2^64 or more bytes"),
            std::string::npos);
  // Each array fits, their sum does not.
  Footprint g(UINT64_MAX);
  g.add("A", {{"m", std::uint64_t(1) << 61}}, 4);
  EXPECT_NE(rejection([&] {
              g.add("B", {{"k", std::uint64_t(1) << 61}}, 4);
            }).find("--m 2305843009213693952 --k 2305843009213693952: the arrays would take 2^64 or more bytes"),
            std::string::npos);
  // A zero extent makes an empty array, whatever the others.
  EXPECT_EQ(Footprint::elements("A", {{"m", std::uint64_t(1) << 63}, {"n", 0}, {"k", std::uint64_t(1) << 63}}), 0u);
}

TEST(AppArgs, ArraysMustFitTheMemoryLimit) {
  Footprint f(600);
  f.add("x (n floats)", {{"n", 100}}, 4);
  f.check();  // 400 bytes
  f.add("y (n floats)", {{"n", 100}}, 4);
  EXPECT_EQ(f.bytes(), 800u);
  EXPECT_NE(rejection([&] { f.check(); })
                .find("--n 100: the arrays need 800 bytes (x (n floats) 400 bytes, y (n "
                      "floats) 400 bytes), more than the 600 bytes of memory"),
            std::string::npos)
      << rejection([&] { f.check(); });
  EXPECT_GT(Footprint::default_limit(), 0u);
  EXPECT_LE(Footprint::default_limit(), std::uint64_t(PTRDIFF_MAX));
}

}  // namespace
