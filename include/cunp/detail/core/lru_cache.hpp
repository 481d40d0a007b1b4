// cunp/detail/core/lru_cache.hpp: a bounded, thread-safe least-recently-used cache of shared
// entries: the one cache behind the plans and descriptors of every vendor-library family.
#pragma once
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cunp/detail/core/runtime.hpp"

namespace cunp::detail::core {

/// What lookup_or_make's `make` returns: the new entry and the device bytes it holds or draws
/// when it is used (a plan's work area), which count against the cache's byte bound.
template <class V> struct sized {
  std::shared_ptr<V> value;
  std::size_t bytes = 0;
};

/// At most max_entries entries holding at most max_bytes together; the least recently used go
/// first. Entries are shared: one evicted or cleared while a caller holds it lives until that
/// caller lets it go. Every member may be called from any thread; using an entry from several
/// threads at once is the entry's own business (a plan serialises its uses).
template <class Key, class V, class Hash = std::hash<Key>>
class lru_cache {
 public:
  lru_cache(std::size_t max_entries, std::size_t max_bytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}
  lru_cache(const lru_cache&) = delete;
  lru_cache& operator=(const lru_cache&) = delete;

  /// The entry of `key`, made by make() (returning sized<V>) when it is not cached. make runs
  /// outside the lock: plans take milliseconds to make, and making one allocates device memory,
  /// which may empty this very cache. Two threads that miss the same key both make it; the first
  /// one stored is kept and returned to both. An entry larger than the byte bound (or any entry,
  /// with max_entries 0) is returned without being cached.
  template <class Make> std::shared_ptr<V> lookup_or_make(const Key& key, Make&& make) {
    {
      std::lock_guard lock(mutex_);
      if (auto hit = find_and_touch(key)) {
        ++hits_;
        return hit;
      }
      ++misses_;
    }
    sized<V> made = std::forward<Make>(make)();
    std::vector<std::shared_ptr<V>> evicted;  // destroyed after the lock is released
    std::lock_guard lock(mutex_);
    if (auto stored = find_and_touch(key)) return stored;
    if (max_entries_ > 0 && made.bytes <= max_bytes_) {
      order_.push_front({key, made.value, made.bytes});
      index_.emplace(key, order_.begin());
      bytes_ += made.bytes;
      evict_beyond(max_entries_, max_bytes_, evicted);
    }
    return std::move(made.value);
  }

  /// New bounds; entries beyond them are evicted now.
  void set_limits(std::size_t max_entries, std::size_t max_bytes) {
    std::vector<std::shared_ptr<V>> evicted;
    std::lock_guard lock(mutex_);
    max_entries_ = max_entries;
    max_bytes_ = max_bytes;
    evict_beyond(max_entries_, max_bytes_, evicted);
  }

  /// Drops every entry (not counted as evictions; the counters are kept).
  void clear() {
    std::list<node> gone;
    std::lock_guard lock(mutex_);
    gone.swap(order_);
    index_.clear();
    bytes_ = 0;
  }

  [[nodiscard]] plan_cache_stats stats() const {
    std::lock_guard lock(mutex_);
    return {order_.size(), bytes_, hits_, misses_, evictions_, max_entries_, max_bytes_};
  }

 private:
  struct node {
    Key key;
    std::shared_ptr<V> value;
    std::size_t bytes;
  };

  std::shared_ptr<V> find_and_touch(const Key& key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->value;
  }
  void evict_beyond(std::size_t entries, std::size_t bytes, std::vector<std::shared_ptr<V>>& out) {
    while (!order_.empty() && (order_.size() > entries || bytes_ > bytes)) {
      node& last = order_.back();
      out.push_back(std::move(last.value));
      bytes_ -= last.bytes;
      index_.erase(last.key);
      order_.pop_back();
      ++evictions_;
    }
  }

  mutable std::mutex mutex_;
  std::list<node> order_;  // most recently used first
  std::unordered_map<Key, typename std::list<node>::iterator, Hash> index_;
  std::size_t bytes_ = 0, hits_ = 0, misses_ = 0, evictions_ = 0;
  std::size_t max_entries_, max_bytes_;
};

}  // namespace cunp::detail::core
