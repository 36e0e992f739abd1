// SPDX-License-Identifier: Apache-2.0
#pragma once
// The independent check of a matrix product: a double-precision host reference, row by
// row, with a tolerance derived from K. Every variant sums K products per element of C
// (in some order, with or without fused multiply-adds), so its error obeys the classic
// bound |c_ij - (A·B)_ij| <= gamma_K (|A|·|B|)_ij with gamma_K ~ K·u (u the unit
// roundoff); the check allows K·eps·(|A|·|B|)_ij (eps = 2u), twice that.
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace matmul {

struct CheckResult {
  std::size_t checked = 0, wrong = 0;           // elements compared, elements outside tolerance
  double worst = 0;                             // largest |error| / tolerance (<= 1 passes)
  double max_error = 0;                         // largest |error|
  double error_norm2 = 0, reference_norm2 = 0;  // sums of squares of the errors and of the reference

  /// ||C - ref||_F / ||ref||_F over the checked elements.
  double relative_error() const { return reference_norm2 > 0 ? std::sqrt(error_norm2 / reference_norm2) : 0; }
};

/// A·B in double precision on the host for chosen rows of the result, computed once
/// and compared with any number of computed products.
class ProductReference {
 public:
  /// a (m×k) and b (k×n): host-accessible 2-d views (anything with operator()(i, j) and extent).
  template <class HA, class HB>
  ProductReference(const HA& a, const HB& b, std::vector<std::size_t> rows)
      : rows_(std::move(rows)), n_(b.extent(1)), k_(a.extent(1)), ref_(rows_.size() * n_, 0.0), mag_(ref_.size(), 0.0) {
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      double* ref = ref_.data() + r * n_;
      double* mag = mag_.data() + r * n_;
      for (std::size_t p = 0; p < k_; ++p) {
        const double x = double(a(rows_[r], p));
        for (std::size_t j = 0; j < n_; ++j) {
          const double y = double(b(p, j));
          ref[j] += x * y;
          mag[j] += std::fabs(x) * std::fabs(y);
        }
      }
    }
  }

  /// Compares the host-accessible result c, computed in type T, with the reference. With
  /// input_u > 0 the product rounded A and B to unit roundoff input_u first: each product
  /// may then be off by (2u + u²)|a||b|, and the sums see inputs up to (1 + u) larger.
  template <class T, class HC>
  CheckResult check(const HC& c, double input_u = 0) const {
    const double eps = double(std::numeric_limits<T>::epsilon());
    const double relative = double(k_) * eps * (1 + input_u) * (1 + input_u) + 2 * input_u + input_u * input_u;
    CheckResult r;
    for (std::size_t row = 0; row < rows_.size(); ++row)
      for (std::size_t j = 0; j < n_; ++j) {
        const std::size_t at = row * n_ + j;
        const double error = std::fabs(double(c(rows_[row], j)) - ref_[at]);
        const double tolerance = relative * mag_[at] + double(std::numeric_limits<T>::denorm_min());
        r.error_norm2 += error * error;
        r.reference_norm2 += ref_[at] * ref_[at];
        ++r.checked;
        if (!(error <= tolerance)) ++r.wrong;  // NaN counts as wrong
        r.worst = std::fmax(r.worst, error / tolerance);
        r.max_error = std::fmax(r.max_error, error);
      }
    return r;
  }

  const std::vector<std::size_t>& rows() const { return rows_; }

 private:
  std::vector<std::size_t> rows_;
  std::size_t n_, k_;
  std::vector<double> ref_, mag_;
};

/// Every row of an m-row result.
inline std::vector<std::size_t> all_rows(std::size_t m) {
  std::vector<std::size_t> rows(m);
  for (std::size_t i = 0; i < m; ++i) rows[i] = i;
  return rows;
}

/// About `count` rows spread over an m-row result, always the first and the last
/// (where partial blocks sit), for a check that stays cheap on large products.
inline std::vector<std::size_t> sample_rows(std::size_t m, std::size_t count) {
  if (m <= count) return all_rows(m);
  std::vector<std::size_t> rows;
  for (std::size_t s = 0; s < count; ++s) rows.push_back(s * (m - 1) / (count - 1));
  return rows;
}

}  // namespace matmul
