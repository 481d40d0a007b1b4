// fn_ref<R(A...)>: a non-owning reference to a callable, for the parameters of the harness's
// helpers (C++26's std::function_ref, reduced to what the tests use). A helper that takes a
// std::function makes every lambda passed to it instantiate std::function's constructor and the
// type traits behind it; with one lambda per checked case that was most of nvcc's front-end time
// on the tests (bench/RESULTS.md, run record, thirty-ninth session). fn_ref instantiates one
// small thunk a lambda. It refers to the callable, so it must not outlive it: use it for
// parameters, not for members.
#pragma once
#include <memory>
#include <type_traits>
#include <utility>

namespace cunp_test {

template <class Sig> class fn_ref;

template <class R, class... A> class fn_ref<R(A...)> {
 public:
  // Implicit, as a callable converts to a std::function parameter.
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, fn_ref>)
  fn_ref(F&& f) noexcept : call_(&invoke<std::remove_reference_t<F>>) {
    if constexpr (std::is_function_v<std::remove_reference_t<F>>)
      target_.fn = reinterpret_cast<void (*)()>(&f);
    else
      target_.obj = const_cast<void*>(static_cast<const void*>(std::addressof(f)));
  }

  R operator()(A... a) const { return call_(target_, std::forward<A>(a)...); }

 private:
  // A function is referred to by its pointer, any other callable by its address.
  union target {
    void* obj;
    void (*fn)();
  };

  // A result that R = void discards, as std::function<void()> does.
  template <class F> static R invoke(target t, A... a) {
    F* f;
    if constexpr (std::is_function_v<F>) f = reinterpret_cast<F*>(t.fn);
    else f = static_cast<F*>(t.obj);
    if constexpr (std::is_void_v<R>) (void)(*f)(std::forward<A>(a)...);
    else return (*f)(std::forward<A>(a)...);
  }

  target target_;
  R (*call_)(target, A...);
};

}  // namespace cunp_test
