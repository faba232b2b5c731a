package batch

import (
	"context"
	"sync"
	"testing"
	"time"
)

// recorder records the batches it is given; the first Export waits for
// release, so that items queue up behind it.
type recorder struct {
	mu      sync.Mutex
	batches [][]int
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func (r *recorder) Export(ctx context.Context, batch []int) error {
	r.once.Do(func() {
		close(r.started)
		<-r.release
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches = append(r.batches, append([]int(nil), batch...))
	return nil
}

func (r *recorder) Shutdown(context.Context) error { return nil }

// A queue far longer than a batch (the exporter held up while items come)
// is exported in order, each item once, in full batches but the last; a
// full queue drops what comes beyond it, counting the items in flight
// apart.
func TestLongQueue(t *testing.T) {
	const batchSize, queueSize = 7, 1000
	r := &recorder{started: make(chan struct{}), release: make(chan struct{})}
	b := New[int](r, Config{Delay: time.Hour, Batch: batchSize, Queue: queueSize}, "test")
	for i := range batchSize {
		b.Add(i)
	}
	<-r.started // the first batch is in flight, held up
	for i := batchSize; i < batchSize+queueSize+50; i++ {
		b.Add(i)
	}
	if got := b.Dropped(); got != 50 {
		t.Fatalf("dropped %d, want 50 (a queue of %d, a batch in flight)", got, queueSize)
	}
	close(r.release)
	if err := b.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	b.Add(-1) // the queue works on after it emptied
	if err := b.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	var all []int
	for i, batch := range r.batches {
		if len(batch) == 0 || len(batch) > batchSize || (len(batch) < batchSize && i < len(r.batches)-2) {
			t.Fatalf("batch %d of %d: %d items", i, len(r.batches), len(batch))
		}
		all = append(all, batch...)
	}
	if len(all) != batchSize+queueSize+1 {
		t.Fatalf("%d items exported, want %d", len(all), batchSize+queueSize+1)
	}
	for i, v := range all[:len(all)-1] {
		if v != i {
			t.Fatalf("item %d is %d", i, v)
		}
	}
	if all[len(all)-1] != -1 {
		t.Fatalf("last item %d", all[len(all)-1])
	}
}
