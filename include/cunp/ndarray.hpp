// cunp/ndarray.hpp: ndarray<T>, a handle to shared, strided storage on one device.
#pragma once
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cunp/detail/core/device_wait.hpp"
#include "cunp/detail/cpu/core/loops.hpp"
#include "cunp/dtype.hpp"
#include "cunp/memory.hpp"
#include "cunp/shape.hpp"

namespace cunp {

template <element_type Elem> class ndarray;

namespace detail {
template <class To, class From>
void cast_into(host_backend, const ndarray<To>& dst, const ndarray<From>& src);
template <class Elem> void copy_same(const ndarray<Elem>& dst, const ndarray<Elem>& src);
/// The shape (0,) (V = 0) and strides (1,) (V = 1) of an array without storage, ndarray().
template <index_t V> const std::vector<index_t>& empty_extents() {
  static const std::vector<index_t> extents{V};
  return extents;
}
/// Whether X is an ndarray (not an expression, not a C++ value).
template <class X> inline constexpr bool is_ndarray_v = false;
template <class T> inline constexpr bool is_ndarray_v<ndarray<T>> = true;
}  // namespace detail

/// numpy.ndarray: shape, element strides, offset and device over shared storage. Copying the
/// handle aliases (`b = a` shares data); views share storage; copy() is a deep copy. Element
/// access goes through to_vector()/item() or operations, since the data may live on a GPU.
template <element_type Elem> class ndarray {
 public:
  using value_type = Elem;

  /// An empty 1-d array of shape (0,) on the cpu. It holds no storage and no extents (the
  /// accessors give (0,), cpu and a shared empty buffer), so that making one allocates nothing.
  ndarray() = default;
  ndarray(const ndarray&) = default;
  ndarray& operator=(const ndarray&) = default;
  /// Moves hand the storage on and leave the source as ndarray() makes one, a usable empty cpu
  /// array: pointer moves, no allocation, no reference count touched.
  ndarray(ndarray&& other) noexcept
      : buf_(std::move(other.buf_)), offset_(std::exchange(other.offset_, 0)),
        shape_(std::move(other.shape_)), strides_(std::move(other.strides_)) {}
  ndarray& operator=(ndarray&& other) noexcept {
    if (this == &other) return *this;
    buf_ = std::move(other.buf_);
    offset_ = std::exchange(other.offset_, 0);
    shape_ = std::move(other.shape_);
    strides_ = std::move(other.strides_);
    other.shape_.clear();  // a moved-from vector is only "valid": make it ndarray()'s
    other.strides_.clear();
    return *this;
  }
  // Every array, fresh or a view (reshape, broadcast_to, view() with newaxis, transpose,
  // meshgrid, adapt...), is made by one of the two constructors below, so NumPy's size check
  // (detail::checked_size: no negative extent, size * itemsize fits an int64) is made there and
  // nowhere else: no way of making an array can skip it. It costs ndim multiplications, little
  // next to the shape vector a view already allocates; sizes derived from a checked array then
  // need no check of their own.

  /// A view of `buf`: element offset, shape and element strides (no copy). Only the size is
  /// checked; the caller keeps the elements inside `buf`.
  ndarray(std::shared_ptr<detail::buffer> buf, index_t offset, shape_t shape, strides_t strides)
      : buf_(std::move(buf)), offset_(offset), shape_(std::move(shape)), strides_(std::move(strides)) {
    detail::checked_size(shape_, sizeof(Elem));
  }
  /// A fresh C-ordered array of `shape` on `dev`, uninitialised (numpy.empty). The size is
  /// checked before anything is allocated.
  ndarray(const shape_t& shape, cunp::device dev)
      : ndarray(fresh{}, detail::checked_size(shape, sizeof(Elem)), shape, dev) {}

  /// Materialises a lazy element-wise expression (see cunp/ufunc.hpp): one loop on the cpu, one
  /// kernel on a GPU. The expression's dtype must be Elem; convert with cunp::astype<Elem>(e).
  template <class E, class Backend = detail::compiled_backend>
    requires requires(const E& e) {
      typename E::loop_type;
      e.shape();
      e.device();
    }
  ndarray(const E& e) : ndarray(e.shape(), e.device()) {
    static_assert(std::is_same_v<typename E::value_type, Elem>,
                  "the expression's dtype differs from the array's: wrap it in cunp::astype<T>(...)");
    detail::dispatch<Backend>(device(), [&](auto be) { evaluate(be, *this, e); });
  }

  // Without storage (ndarray(), a moved-from array) the array is np.array([]) on the cpu: every
  // member below reads buf_, shape_ and strides_ through these accessors.
  [[nodiscard]] const shape_t& shape() const { return buf_ ? shape_ : detail::empty_extents<0>(); }
  [[nodiscard]] const strides_t& strides() const {
    return buf_ ? strides_ : detail::empty_extents<1>();
  }
  [[nodiscard]] index_t offset() const { return offset_; }
  [[nodiscard]] int ndim() const { return static_cast<int>(shape().size()); }
  [[nodiscard]] index_t size() const {
    return std::accumulate(shape().begin(), shape().end(), index_t{1}, std::multiplies<>());
  }
  [[nodiscard]] cunp::device device() const { return buf_ ? buf_->dev : cpu; }
  [[nodiscard]] static constexpr std::size_t itemsize() { return sizeof(Elem); }
  [[nodiscard]] std::size_t nbytes() const { return static_cast<std::size_t>(size()) * sizeof(Elem); }
  [[nodiscard]] static constexpr cunp::dtype dtype() { return dtype_of_v<Elem>; }
  /// C-contiguous (numpy's flags.c_contiguous): extents of 1 may carry any stride.
  [[nodiscard]] bool is_contiguous() const {
    const shape_t& sh = shape();
    const strides_t& st = strides();
    index_t expect = 1;
    for (std::size_t d = sh.size(); d-- > 0;) {
      if (sh[d] == 0) return true;
      if (sh[d] != 1 && st[d] != expect) return false;
      expect *= sh[d];
    }
    return true;
  }
  /// The first element (a host or a device pointer).
  [[nodiscard]] Elem* data() const {
    return buf_ ? static_cast<Elem*>(buf_->ptr) + offset_ : nullptr;
  }
  [[nodiscard]] const std::shared_ptr<detail::buffer>& storage() const {
    return buf_ ? buf_ : detail::empty_host_buffer();
  }

  /// A C-ordered copy on `dev`, or this same handle when it is already there.
  [[nodiscard]] ndarray to(cunp::device dev) const {
    if (dev == device()) return *this;
    detail::check_device(dev);
    const ndarray src = is_contiguous() ? *this : copy();
    ndarray out(shape(), dev);
    if (nbytes() == 0) return out;
    if (dev.is_cuda() && src.device().is_cpu()) {
      detail::gpu()->copy_to_device(dev.index(), out.data(), src.data(), nbytes(),
                                    src.storage()->pinned());
    } else if (dev.is_cpu()) {
      detail::check_synchronize_allowed("ndarray::to(cpu)");
      const int from = src.device().index();
      detail::gpu()->copy_to_host(from, out.data(), src.data(), nbytes(), false);
      detail::raise_pending_index_fault(src.device(), detail::waited::stream,
                                        detail::stream_for(from));
    } else {  // between two GPUs, through the host
      return src.to(cpu).to(dev);
    }
    return out;
  }

  /// The elements in C order, on the host (waits for the device).
  [[nodiscard]] std::vector<Elem> to_vector() const {
    const ndarray h = to(cpu);
    const ndarray c = h.is_contiguous() ? h : h.copy();
    return std::vector<Elem>(c.data(), c.data() + c.size());
  }

  /// The one element of a size-1 array (numpy.ndarray.item; waits for the device).
  [[nodiscard]] Elem item() const {
    if (size() != 1)
      throw value_error("can only convert an array of size 1 to a scalar, not of shape " +
                        shape_str(shape()));
    if (device().is_cpu()) return *data();
    detail::check_synchronize_allowed("ndarray::item");
    Elem v;
    detail::gpu()->copy_to_host(device().index(), &v, data(), sizeof(Elem), false);
    detail::raise_pending_index_fault(device(), detail::waited::stream,
                                      detail::stream_for(device().index()));
    return v;
  }

  /// A deep, C-ordered copy on the same device.
  [[nodiscard]] ndarray copy() const {
    ndarray out(shape(), device());
    detail::copy_same(out, *this);
    return out;
  }

  /// numpy.ndarray.astype(U): a converted C-ordered copy (always a new array, as NumPy's default).
  template <class U, class Backend = detail::compiled_backend>
  [[nodiscard]] ndarray<U> astype() const {
    ndarray<U> out(shape(), device());
    detail::dispatch<Backend>(out.device(), [&](auto be) { cast_into(be, out, *this); });
    return out;
  }

  /// Sets every element to v (numpy.ndarray.fill). Writes through the handle, as views do.
  void fill(const Elem& v) const {
    const auto l = detail::make_loop_layout<1>(shape(), {&strides()});
    if (device().is_cpu()) {
      Elem* p = data();
      detail::host::for_each_row(l, [&](const auto& off, index_t n, const auto& st) {
        for (index_t i = 0; i < n; ++i) p[off[0] + i * st[0]] = v;
      });
    } else if (l.size > 0) {
      detail::strided_operand dst{data(), {}};
      std::copy(l.strides[0].begin(), l.strides[0].end(), dst.strides);
      detail::gpu()->fill(device().index(), sizeof(Elem), l.shape, dst, &v);
    }
  }

  /// numpy.reshape: a view when the strides allow it, else a C-ordered copy. One extent may be -1.
  [[nodiscard]] ndarray reshape(shape_t new_shape) const {
    int unknown = -1;
    for (std::size_t d = 0; d < new_shape.size(); ++d) {
      if (new_shape[d] == -1) {
        if (unknown >= 0) throw value_error("can only specify one unknown dimension");
        unknown = static_cast<int>(d);
      } else if (new_shape[d] < 0) {
        throw value_error("negative dimensions are not allowed: shape " + shape_str(new_shape));
      }
    }
    // The known extents' product (the -1 counted as 1 meanwhile); one past int64 matches no size
    // (NumPy: "cannot reshape").
    if (unknown >= 0) new_shape[unknown] = 1;
    const index_t known = detail::extent_product(new_shape).value_or(-1);
    if (unknown >= 0) new_shape[unknown] = -1;
    if (unknown >= 0 && known > 0 && size() % known == 0) new_shape[unknown] = size() / known;
    if ((unknown >= 0 && (known <= 0 || size() % known != 0)) || (unknown < 0 && known != size())) {
      shape_t shown = new_shape;
      throw shape_error("cannot reshape array of size " + std::to_string(size()) + " into shape " +
                        shape_str(shown));
    }
    if (strides_t st; nocopy_strides(new_shape, st))
      return ndarray(storage(), offset_, new_shape, st);
    return copy().reshape(std::move(new_shape));
  }

  /// The transpose (all axes reversed), a view (numpy.ndarray.T).
  [[nodiscard]] ndarray T() const {
    return ndarray(storage(), offset_, shape_t(shape().rbegin(), shape().rend()),
                   strides_t(strides().rbegin(), strides().rend()));
  }

 private:
  // NumPy's _attempt_nocopy_reshape: strides for new_shape over the same elements, if any.
  bool nocopy_strides(const shape_t& new_shape, strides_t& out) const {
    out.assign(new_shape.size(), 0);
    if (size() == 0 || is_contiguous()) {
      out = c_strides(new_shape);
      return true;
    }
    shape_t od;
    strides_t os;
    for (std::size_t d = 0; d < shape().size(); ++d)
      if (shape()[d] != 1) {
        od.push_back(shape()[d]);
        os.push_back(strides()[d]);
      }
    std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < new_shape.size() && oi < od.size()) {
      index_t np = new_shape[ni], op = od[oi];
      while (np != op) {
        if (np < op) np *= new_shape[nj++];
        else op *= od[oj++];
      }
      for (std::size_t ok = oi; ok + 1 < oj; ++ok)
        if (os[ok] != od[ok + 1] * os[ok + 1]) return false;
      out[nj - 1] = os[oj - 1];
      for (std::size_t nk = nj - 1; nk > ni; --nk) out[nk - 1] = out[nk] * new_shape[nk];
      ni = nj++;
      oi = oj++;
    }
    const index_t last = ni > 0 ? out[ni - 1] : 1;
    for (std::size_t nk = ni; nk < new_shape.size(); ++nk) out[nk] = last;
    return true;
  }

  // The fresh-array constructor's second half: `size` is already checked, so size * itemsize
  // and c_strides' products fit and the view constructor's check is not made twice.
  struct fresh {};
  ndarray(fresh, index_t size, const shape_t& shape, cunp::device dev)
      : buf_(detail::allocate(dev, static_cast<std::size_t>(size) * sizeof(Elem))), shape_(shape),
        strides_(c_strides(shape)) {}

  std::shared_ptr<detail::buffer> buf_;
  index_t offset_ = 0;
  shape_t shape_;
  strides_t strides_;
};

/// Wraps memory that cunp does not own (numpy.frombuffer / cupy's UnownedMemory): `data` is the
/// first element, strides count elements (C order when empty). `owner`, if given, is kept alive
/// as long as any array uses the memory; otherwise the caller keeps it alive.
template <element_type T>
[[nodiscard]] ndarray<T> adapt(T* data, const shape_t& shape, strides_t strides = {},
                               device dev = cpu, std::shared_ptr<const void> owner = {}) {
  detail::check_device(dev);
  shape_size(shape);
  if (strides.empty()) strides = c_strides(shape);
  if (strides.size() != shape.size())
    throw shape_error("adapt: " + std::to_string(strides.size()) + " strides given for shape " +
                      shape_str(shape));
  if (!data && shape_size(shape) != 0) throw value_error("adapt: null pointer for a non-empty array");
  auto b = std::make_shared<detail::buffer>();
  b->ptr = data;
  b->dev = dev;
  b->how = detail::buffer::origin::foreign;
  b->owner = std::move(owner);
  return ndarray<T>(std::move(b), 0, shape, std::move(strides));
}

}  // namespace cunp

// The copy both backends share and the cpu backend of casts; the CUDA backend for nvcc TUs
// (cunp.hpp includes every one).
#include "cunp/detail/core/copy.hpp"
#include "cunp/detail/cpu/core/cast.hpp"
#if defined(__CUDACC__)
#include "cunp/detail/cuda/core/cast.cuh"
#include "cunp/detail/cuda/core/runtime.cuh"
#endif
