package webhook

import (
	"context"
	"sync"
	"time"
)

// A ReplayStore remembers the ids of the messages received, so that one
// received again is refused (ErrReplay). The default is a [MemoryStore];
// replicas behind one load balancer share one through this interface (a
// key-value store with expiry: Redis SET NX EX, a NATS KV bucket with a TTL).
type ReplayStore interface {
	// Remember records id until expires and reports whether it was new;
	// false means it is held already (a replay).
	Remember(ctx context.Context, id string, expires time.Time) (bool, error)
	// Forget drops id: a message the receiver failed to handle may come
	// again (the sender retries it).
	Forget(ctx context.Context, id string) error
}

// DefaultReplayEntries bounds the ids a MemoryStore from NewMemoryStore(0)
// holds.
const DefaultReplayEntries = 100_000

// MemoryStore is a ReplayStore in memory, bounded: it holds at most its
// size of ids, each until it expires; when full, the one that expires
// first makes room. Safe for concurrent use.
type MemoryStore struct {
	mu      sync.Mutex
	max     int
	expires map[string]time.Time
	order   []entry // by insertion; the oldest first
	now     func() time.Time
}

type entry struct {
	id      string
	expires time.Time
}

// NewMemoryStore returns a store of at most max ids (<= 0:
// DefaultReplayEntries).
func NewMemoryStore(max int) *MemoryStore {
	if max <= 0 {
		max = DefaultReplayEntries
	}
	return &MemoryStore{max: max, expires: map[string]time.Time{}, now: time.Now}
}

// Remember implements ReplayStore.
func (s *MemoryStore) Remember(_ context.Context, id string, expires time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if e, ok := s.expires[id]; ok && e.After(now) {
		return false, nil
	}
	s.prune(now)
	for len(s.expires) >= s.max && len(s.order) > 0 {
		s.drop() // full of live ids: the oldest goes
	}
	s.expires[id] = expires
	s.order = append(s.order, entry{id, expires})
	return true, nil
}

// Forget implements ReplayStore.
func (s *MemoryStore) Forget(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.expires, id) // its entry in order is skipped when it comes up
	return nil
}

// Len returns the number of ids held.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.expires)
}

// prune drops the expired entries at the front of order (ids are added
// with expiries that grow with time, nearly: a few may wait a little).
func (s *MemoryStore) prune(now time.Time) {
	for len(s.order) > 0 && !s.order[0].expires.After(now) {
		s.drop()
	}
	if len(s.order) > 2*s.max { // many forgotten or renewed entries: compact
		live := s.order[:0]
		for _, e := range s.order {
			if x, ok := s.expires[e.id]; ok && x.Equal(e.expires) {
				live = append(live, e)
			}
		}
		s.order = live
	}
}

// drop removes the oldest entry.
func (s *MemoryStore) drop() {
	e := s.order[0]
	s.order[0] = entry{}
	s.order = s.order[1:]
	if x, ok := s.expires[e.id]; ok && x.Equal(e.expires) {
		delete(s.expires, e.id)
	}
}
