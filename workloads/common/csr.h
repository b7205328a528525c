// Seeded CSR (compressed sparse row) structure generation shared by the graph
// and sparse-matrix workloads. A row's entries mix "local" columns (within a
// band around the diagonal: neighbouring rows touch neighbouring data, giving
// caches something to find) and uniformly random ones (irregular accesses);
// columns within a row are sorted and unique.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "workloads/common/rng.h"

namespace simtlm::workloads {

struct CsrStructure {
  uint32_t rows = 0;
  uint32_t cols = 0;
  std::vector<int32_t> row_offsets;  // rows + 1 entries, row_offsets[0] = 0
  std::vector<int32_t> col_indices;  // row_offsets[rows] entries
  uint64_t nnz() const { return col_indices.size(); }
};

struct CsrShape {
  uint32_t rows = 0;
  uint32_t cols = 0;
  uint32_t band = 64;            // local columns lie in [row - band, row + band] (wrapped)
  uint32_t local_per_256 = 128;  // share of local columns, out of 256
};

// `row_length(rng)` draws the requested entries of one row (before removing
// duplicates; must be <= cols).
template <typename LengthFn>
CsrStructure make_csr(const CsrShape& shape, SplitMix64& rng, LengthFn row_length) {
  CsrStructure m;
  m.rows = shape.rows;
  m.cols = shape.cols;
  m.row_offsets.reserve(size_t(shape.rows) + 1);
  m.row_offsets.push_back(0);
  std::vector<int32_t> row;
  for (uint32_t r = 0; r < shape.rows; ++r) {
    const uint32_t len = row_length(rng);
    row.clear();
    for (uint32_t k = 0; k < len; ++k) {
      int64_t c;
      if (rng.below(256) < shape.local_per_256) {
        // Diagonal position of row r scaled to the column count, plus an offset.
        const int64_t centre = int64_t(uint64_t(r) * shape.cols / shape.rows);
        c = centre + rng.range(-int64_t(shape.band), int64_t(shape.band));
        c = ((c % int64_t(shape.cols)) + int64_t(shape.cols)) % int64_t(shape.cols);
      } else {
        c = rng.below(shape.cols);
      }
      row.push_back(int32_t(c));
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    m.col_indices.insert(m.col_indices.end(), row.begin(), row.end());
    m.row_offsets.push_back(int32_t(m.col_indices.size()));
  }
  return m;
}

}  // namespace simtlm::workloads
