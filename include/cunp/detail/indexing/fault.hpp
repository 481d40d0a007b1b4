// cunp/detail/indexing/fault.hpp: how a bad index found on a GPU reaches the host. Index kernels
// run without a host round trip, so they cannot throw: the first bad index of a call is written
// to a record in device memory, and the next wait for the device turns it into the exception
// (detail/core/device_wait.hpp). A singular matrix met by a GPU factorisation (linalg.hpp's
// solve and inv) takes the same way. Also the switch that makes index calls, and those linalg
// calls, wait and throw at once.
#pragma once
#include <cstdint>
#include <string>

#include "cunp/errors.hpp"

namespace cunp {

/// When a bad index found on a GPU is reported: `deferred` (the default) at the next operation
/// that waits for the device; `eager` at the index call itself, which then waits (for debugging).
enum class index_checking : std::uint8_t { deferred, eager };

namespace detail {
inline index_checking& index_checking_slot() {
  thread_local index_checking mode = index_checking::deferred;
  return mode;
}
}  // namespace detail

/// The calling thread's index checking (index_checking::deferred unless set).
[[nodiscard]] inline index_checking get_index_checking() { return detail::index_checking_slot(); }
/// Sets the calling thread's index checking; index_checking_guard sets it for a scope.
inline void set_index_checking(index_checking mode) { detail::index_checking_slot() = mode; }

/// Sets the calling thread's index checking for a scope and restores the previous one.
class index_checking_guard {
 public:
  explicit index_checking_guard(index_checking mode) : saved_(get_index_checking()) {
    set_index_checking(mode);
  }
  index_checking_guard(const index_checking_guard&) = delete;
  index_checking_guard& operator=(const index_checking_guard&) = delete;
  ~index_checking_guard() { set_index_checking(saved_); }

 private:
  index_checking saved_;
};

namespace detail {

/// The operations that index arrays, as their errors name them, and the linear-algebra failures
/// a GPU factorisation reports through the same record (its `info`, read without a wait).
enum class index_op : std::int32_t {
  take,
  put,
  take_along_axis,
  put_along_axis,
  choose,
  add_at,
  subtract_at,
  multiply_at,
  maximum_at,
  minimum_at,
  singular_matrix,        ///< an LU factorisation met an exactly zero pivot (solve, inv)
  not_positive_definite,  ///< a Cholesky factorisation met a pivot <= 0 (cholesky)
  svd_not_converged,      ///< svd's iteration did not converge
  eig_not_converged       ///< eigh's or eig's iteration did not converge
};
inline const char* index_op_name(index_op op) {
  switch (op) {
    case index_op::take:
      return "take";
    case index_op::put:
      return "put";
    case index_op::take_along_axis:
      return "take_along_axis";
    case index_op::put_along_axis:
      return "put_along_axis";
    case index_op::choose:
      return "choose";
    case index_op::add_at:
      return "add_at";
    case index_op::subtract_at:
      return "subtract_at";
    case index_op::multiply_at:
      return "multiply_at";
    case index_op::maximum_at:
      return "maximum_at";
    case index_op::minimum_at:
      return "minimum_at";
    case index_op::singular_matrix:
      return "solve";
    case index_op::not_positive_definite:
      return "cholesky";
    case index_op::svd_not_converged:
      return "svd";
    case index_op::eig_not_converged:
      return "eig";
  }
  return "indexing";
}

/// The fault record of one device, in device memory, all zeros when nothing is pending. The
/// first call whose kernel meets a bad index claims it (owner: the call's id, by atomicCAS from
/// 0), and only the owner's kernels then lower `first` (the bitwise complement of the position of
/// the bad index in the call's order, raised by atomicMax, so the smallest position wins). A
/// follow-up step of the owner, in stream order after its kernels, reads the index at that
/// position and fills the rest, then sets `ready` to the owner: the host reports only a ready
/// record, so a call still running on another stream is never reported half written. Unsigned
/// long long is the type CUDA's 64-bit atomics take.
struct index_fault {
  unsigned long long owner;
  unsigned long long first;
  unsigned long long ready;
  long long value;  ///< the bad index as given (uint64 indices read as int64, as NumPy casts)
  long long size;   ///< the extent it indexed
  std::int32_t axis;
  std::int32_t op;  ///< an index_op
};

/// NumPy's IndexError text for an index out of bounds.
inline std::string out_of_bounds_text(long long value, long long size, int axis) {
  return "index " + std::to_string(value) + " is out of bounds for axis " + std::to_string(axis) +
         " with size " + std::to_string(size);
}
/// NumPy's ValueError text for a choice index out of range in choose's mode raise.
inline constexpr const char* invalid_choice_text = "invalid entry in choice array";

/// The exception a bad index found on a GPU surfaces as, prefixed with the operation's name:
/// index_error, or value_error for choose (NumPy raises ValueError there); a linear-algebra
/// failure as NumPy's LinAlgError text alone.
[[noreturn]] inline void throw_index_fault(const index_fault& f) {
  const auto op = static_cast<index_op>(f.op);
  // NumPy's LinAlgError texts
  if (op == index_op::singular_matrix) throw linalg_error("Singular matrix");
  if (op == index_op::not_positive_definite) throw linalg_error("Matrix is not positive definite");
  if (op == index_op::svd_not_converged) throw linalg_error("SVD did not converge");
  if (op == index_op::eig_not_converged) throw linalg_error("Eigenvalues did not converge");
  const std::string name = index_op_name(op);
  if (op == index_op::choose) throw value_error(name + ": " + invalid_choice_text);
  throw index_error(name + ": " + out_of_bounds_text(f.value, f.size, f.axis));
}

}  // namespace detail
}  // namespace cunp
