// Package testtool holds what the tests of several packages (mcpbridge,
// toolcli, the examples) share: Store, the mock tool's service kept in
// memory, and Start, a toolcli command run in the test's process. It is
// for tests only.
package testtool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// WaitLong bounds every wait of the helpers: long enough for a loaded
// machine, short enough that a hang fails the test instead of the run.
const WaitLong = 60 * time.Second

// ErrRun is what Run returns at once when the store does not block.
var ErrRun = errors.New("run failed: nothing to run")

// Store implements mocktool.Service: texts by id, safe for concurrent calls.
// Read and Update of an unknown id are errors with code 404; Delete of one
// is not. Set its fields before serving it.
type Store struct {
	// Pace is how long SequentiallyRead waits before each item.
	Pace time.Duration
	// FailStream makes SequentiallyRead fail after its items.
	FailStream bool
	// Blocking makes Run block until its context ends (it reports on
	// Started when it begins and the context's error on Cancelled when it
	// ends, nil after WaitLong) instead of failing at once with ErrRun.
	Blocking bool
	// Started receives a value per Run that started (Blocking only).
	Started chan struct{}
	// Cancelled receives the context's error of each Run that ended
	// (Blocking only).
	Cancelled chan error

	mu    sync.Mutex
	texts map[mocktool.ID]mocktool.Text
	next  mocktool.ID
}

var _ mocktool.Service = (*Store)(nil)

// NewStore returns a store holding texts under the ids 0, 1, …
func NewStore(texts ...mocktool.Text) *Store {
	s := &Store{texts: map[mocktool.ID]mocktool.Text{}, Started: make(chan struct{}, 8), Cancelled: make(chan error, 8)}
	for _, t := range texts {
		s.texts[s.next] = t
		s.next++
	}
	return s
}

// Put stores text under id, as if created (later ids follow it).
func (s *Store) Put(id mocktool.ID, text mocktool.Text) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.texts[id] = text
	if id >= s.next {
		s.next = id + 1
	}
}

// Count reports how many texts the store holds.
func (s *Store) Count(context.Context) (mocktool.Count, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return mocktool.Count(len(s.texts)), nil
}

// Create stores a text under the next id.
func (s *Store) Create(_ context.Context, a mocktool.CreateArgs) (mocktool.ID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.next
	s.next++
	s.texts[id] = mocktool.Text(a.Text)
	return id, nil
}

// notFound is the error of an unknown id.
func notFound(id mocktool.ID) error {
	return runtime.NewError(404, fmt.Sprintf("no text with id %d", id))
}

// Read returns the text of an id.
func (s *Store) Read(_ context.Context, a mocktool.ReadArgs) (mocktool.Text, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.texts[a.ID]
	if !ok {
		return "", notFound(a.ID)
	}
	return t, nil
}

// SequentiallyRead streams every text in id order, from a snapshot taken
// under the lock.
func (s *Store) SequentiallyRead(_ context.Context, emit func(mocktool.Text) error) error {
	s.mu.Lock()
	ids := make([]mocktool.ID, 0, len(s.texts))
	for id := range s.texts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	texts := make([]mocktool.Text, len(ids))
	for i, id := range ids {
		texts[i] = s.texts[id]
	}
	fail, pace := s.FailStream, s.Pace
	s.mu.Unlock()
	for _, t := range texts {
		time.Sleep(pace)
		if err := emit(t); err != nil {
			return err
		}
	}
	if fail {
		return errors.New("the store broke down")
	}
	return nil
}

// Update replaces the text of an id.
func (s *Store) Update(_ context.Context, a mocktool.UpdateArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.texts[a.ID]; !ok {
		return notFound(a.ID)
	}
	s.texts[a.ID] = a.Text
	return nil
}

// Delete removes the text of an id, if any.
func (s *Store) Delete(_ context.Context, a mocktool.DeleteArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.texts, a.ID)
	return nil
}

// Run fails with ErrRun, or blocks (see Blocking).
func (s *Store) Run(ctx context.Context) error {
	if !s.Blocking {
		return ErrRun
	}
	s.Started <- struct{}{}
	select {
	case <-ctx.Done():
		s.Cancelled <- ctx.Err()
		return ctx.Err()
	case <-time.After(WaitLong):
		s.Cancelled <- nil
		return errors.New("run was never cancelled")
	}
}
