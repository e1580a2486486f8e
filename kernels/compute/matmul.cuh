#pragma once

#include "matmul.hpp"

namespace membench::compute {

/// The lesson's kernel: thread (tx, ty) of block (bx, by) computes C[bx*32 + tx][by*32 + ty]
/// straight from global memory; lanes walk rows (uncoalesced A reads and C writes).
__global__ void __launch_bounds__(matmul_simple_block * matmul_simple_block)
    matmul_naive_kernel(const float* a, const float* b, float* c, unsigned n) {
  const matmul_coord p = matmul_naive_coord(threadIdx.x, threadIdx.y, blockIdx.x, blockIdx.y);
  if (p.row < n && p.col < n) c[static_cast<std::uint64_t>(p.row) * n + p.col] = matmul_dot(a, b, n, p.row, p.col);
}

/// The same with lanes walking columns: coalesced B reads and C writes, A broadcast.
__global__ void __launch_bounds__(matmul_simple_block * matmul_simple_block)
    matmul_coalesced_kernel(const float* a, const float* b, float* c, unsigned n) {
  const matmul_coord p = matmul_coalesced_coord(threadIdx.x, threadIdx.y, blockIdx.x, blockIdx.y);
  if (p.row < n && p.col < n) c[static_cast<std::uint64_t>(p.row) * n + p.col] = matmul_dot(a, b, n, p.row, p.col);
}

/// Shared-memory tiles of shape {Tile, Pad, Ilp, TransposeA} (a matmul_tile_shape; spelled
/// out because a kernel template cannot take a class-type parameter): block (bx, by)
/// computes the Tile x Tile block of C at row by * Tile, column bx * Tile, staging
/// Tile-wide slices of A and B per step.
template <unsigned Tile, unsigned Pad, unsigned Ilp, bool TransposeA>
__global__ void __launch_bounds__(Tile * Tile / Ilp) matmul_tile_kernel(const float* a, const float* b, float* c, unsigned n) {
  constexpr matmul_tile_shape S{Tile, Pad, Ilp, TransposeA};
  __shared__ float as[S.shared_words()];
  __shared__ float bs[S.shared_words()];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row0 = blockIdx.y * S.tile, col0 = blockIdx.x * S.tile;
  float acc[S.ilp] = {};
  for (unsigned k0 = 0; k0 < n; k0 += S.tile) {
    matmul_tile_stage<S>(a, b, n, row0, col0, k0, tx, ty, as, bs);
    __syncthreads();
    matmul_tile_accumulate<S>(as, bs, tx, ty, acc);
    __syncthreads();
  }
  matmul_tile_store<S>(c, n, row0, col0, tx, ty, acc);
}

/// Register tiles (see matmul.hpp): block (bx, by) computes the 128 x 128 block of C at row
/// by * 128, column bx * 128; the next k-tile's global reads are in flight while the
/// current one is computed. n a multiple of 128.
__global__ void __launch_bounds__(regtile_threads, 2)
    matmul_regtile_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, unsigned n) {
  __shared__ __align__(16) float as[2][regtile_a_words];
  __shared__ __align__(16) float bs[2][regtile_b_words];
  const unsigned tid = threadIdx.x;
  const unsigned row0 = blockIdx.y * regtile_bm, col0 = blockIdx.x * regtile_bn;
  matmul_f4 fa, fb;
  regtile_fetch(a, b, n, row0, col0, 0, tid, fa, fb);
  regtile_stage(as[0], bs[0], tid, fa, fb);
  __syncthreads();
  float acc[regtile_tm][regtile_tn] = {};
  const unsigned tiles = n / regtile_bk;
  for (unsigned t = 0; t < tiles; ++t) {
    const unsigned cur = t & 1u;
    const bool more = t + 1 < tiles;
    if (more) regtile_fetch(a, b, n, row0, col0, (t + 1) * regtile_bk, tid, fa, fb);
    regtile_accumulate(as[cur], bs[cur], tid, acc);
    // Buffer cur ^ 1 was last read in iteration t - 1, before its closing barrier.
    if (more) regtile_stage(as[cur ^ 1u], bs[cur ^ 1u], tid, fa, fb);
    __syncthreads();
  }
  regtile_store(c, n, row0, col0, tid, acc);
}

}  // namespace membench::compute
