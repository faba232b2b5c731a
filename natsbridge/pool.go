package natsbridge

import (
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// stallTick is how often the pool's monitor looks for calls queued behind
// workers that are all busy with slow calls: a call waits behind a slow one
// at most about two ticks before another worker takes it.
const stallTick = 250 * time.Microsecond

// pool runs a service's calls on long-lived workers fed by a queue. An
// endpoint's subscription goroutine queues each call and wakes a worker only
// when none is running, so that under load one worker serves a burst of
// calls back to back and their answers leave in one write, as they do from
// a micro handler; a monitor, running only while calls are queued behind
// running workers, starts or wakes one more worker when no queued call has
// been taken for a tick (the running workers are all held by slow calls).
// So a slow call does not hold up the others for more than a tick or two,
// and quick calls cost no hand-off per call.
type pool struct {
	s     *Service
	max   int64
	work  chan call     // queued calls (at most max)
	wake  chan struct{} // a token for a parked worker
	arm   chan struct{} // starts the monitor
	armed atomic.Bool

	workers atomic.Int64  // started
	running atomic.Int64  // not parked
	parked  atomic.Int64  // waiting for a token
	taken   atomic.Uint64 // calls taken from the queue
}

func (p *pool) init(s *Service) {
	p.s = s
	p.max = int64(s.cfg.maxConcurrent)
	p.work = make(chan call, s.cfg.maxConcurrent)
	p.wake = make(chan struct{}, 1)
	p.arm = make(chan struct{}, 1)
	if p.max > 1 {
		go p.monitor()
	}
}

// call is a request of endpoint e, which reached its subscription at start.
type call struct {
	m     *nats.Msg
	e     *endpoint
	start time.Time
}

// handle runs in an endpoint's subscription goroutine.
func (s *Service) handle(e *endpoint, m *nats.Msg) {
	c := call{m: m, e: e, start: time.Now()}
	s.inflight.Add(1)
	if s.pool.max == 1 { // one call at a time: in this goroutine, as micro's handlers run
		s.run(c)
		return
	}
	s.pool.submit(c)
}

// submit queues c; a full queue holds up the subscription (requests wait
// in its pending queue, within nats.go's pending limits).
func (p *pool) submit(c call) {
	select {
	case p.work <- c:
	default:
		p.grow()
		p.work <- c
	}
	if p.running.Load() == 0 {
		p.grow()
	} else if !p.armed.Load() && p.armed.CompareAndSwap(false, true) {
		select {
		case p.arm <- struct{}{}:
		default:
		}
	}
}

// grow wakes a parked worker, or starts one while there are fewer than max.
func (p *pool) grow() {
	if p.parked.Load() == 0 && p.workers.Load() < p.max {
		p.workers.Add(1)
		p.running.Add(1)
		go p.worker()
		return
	}
	select {
	case p.wake <- struct{}{}:
	default: // a token is already waiting
	}
}

// worker serves queued calls until the service is shut down, parking when
// the queue is empty. Workers keep their grown stacks from call to call.
func (p *pool) worker() {
	for {
		select {
		case c := <-p.work:
			p.taken.Add(1)
			p.s.run(c)
			continue
		default:
		}
		p.running.Add(-1)
		// A call queued after the check above but before running fell
		// to 0 was queued by a submit that may have seen running > 0.
		select {
		case c := <-p.work:
			p.running.Add(1)
			p.taken.Add(1)
			p.s.run(c)
			continue
		default:
		}
		p.parked.Add(1)
		select {
		case <-p.wake:
			p.parked.Add(-1)
			p.running.Add(1)
		case <-p.s.quit:
			return
		}
	}
}

// monitor grows the pool while calls stay queued and none is taken.
func (p *pool) monitor() {
	t := time.NewTimer(stallTick)
	t.Stop()
	for {
		select {
		case <-p.arm:
		case <-p.s.quit:
			return
		}
		last := p.taken.Load()
		for {
			t.Reset(stallTick)
			select {
			case <-t.C:
			case <-p.s.quit:
				return
			}
			if len(p.work) == 0 {
				p.armed.Store(false)
				if len(p.work) == 0 || !p.armed.CompareAndSwap(false, true) {
					break // disarmed, or armed again by a submit
				}
			}
			if now := p.taken.Load(); now != last {
				last = now
				continue
			}
			p.grow()
		}
	}
}

// run serves c and counts it out.
func (s *Service) run(c call) {
	s.busy.Add(1)
	s.serve(c)
	s.busy.Add(-1)
	s.inflight.Done()
}
