// cunp/errors.hpp: the exception hierarchy (mirrors NumPy's ValueError, TypeError, LinAlgError...).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace cunp {

/// Base of every cunp exception.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Shapes that do not fit (broadcasting, reshape, copyto), axes out of range.
class shape_error : public error {
 public:
  using error::error;
};
/// An element type that the operation or the file does not accept.
class dtype_error : public error {
 public:
  using error::error;
};
/// A bad value: negative sizes, out-of-range indices, empty reductions without identity.
class value_error : public error {
 public:
  using error::error;
};
/// numpy's IndexError: an index out of bounds, too many indices. It derives from value_error
/// so that code catching bad values catches it too.
class index_error : public value_error {
 public:
  using value_error::value_error;
};
/// Operands on different devices, or a device that is not there.
class device_error : public error {
 public:
  using error::error;
};
/// numpy.linalg.LinAlgError.
class linalg_error : public error {
 public:
  using error::error;
};
/// A file that cannot be read or written, or is not a valid .npy/.npz.
class io_error : public error {
 public:
  using error::error;
};

/// numpy.testing's AssertionError: arrays that are not equal or not close (cunp::testing).
class assertion_error : public error {
 public:
  using error::error;
};

/// A CUDA (or CUDA library) call that failed: carries the status and the call.
class cuda_error : public error {
 public:
  cuda_error(int status, std::string call, const std::string& what)
      : error(call + " failed: " + what), status_(status), call_(std::move(call)) {}
  [[nodiscard]] int status() const noexcept { return status_; }
  [[nodiscard]] const std::string& call() const noexcept { return call_; }

 private:
  int status_;
  std::string call_;
};

/// An allocation the device cannot satisfy, even after the cache was freed.
class out_of_memory : public error {
 public:
  out_of_memory(std::size_t requested, std::size_t free_bytes, const std::string& what)
      : error(what), requested_(requested), free_(free_bytes) {}
  [[nodiscard]] std::size_t requested_bytes() const noexcept { return requested_; }
  [[nodiscard]] std::size_t free_bytes() const noexcept { return free_; }

 private:
  std::size_t requested_;
  std::size_t free_;
};

}  // namespace cunp
