package natsbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"
	"github.com/nats-io/nuid"
)

// microService answers the NATS micro protocol for a Service: $SRV.PING,
// $SRV.INFO and $SRV.STATS (each for all services, for the service's name
// and for its id), with nats.go micro's own types, so that nats micro ls,
// info and stats and micro's clients read it as a micro service.
//
// It is not micro.AddService's service because micro measures a request
// from its handler's start to its return and counts an error only when
// the handler answered with micro.Request.Error before returning, while an
// endpoint's handler runs in its subscription's goroutine, one request at
// a time: a service that runs calls at once on workers could make micro
// count nothing but the hand-off to them (its handler returns at once), or
// serve each function one call at a time. Here each call is measured from
// the moment its request reaches the endpoint's subscription to the moment
// its answer (a stream's last message) is sent, and an error answer counts
// as one with micro's text, "code:description".
type microService struct {
	nc       *nats.Conn
	identity micro.ServiceIdentity
	desc     string

	mu        sync.Mutex
	started   time.Time
	endpoints []*endpoint
	verbSubs  []*nats.Subscription
	stopped   bool
}

// endpoint is one endpoint of a microService; stats and data are guarded by
// the service's mu.
type endpoint struct {
	info  micro.EndpointInfo
	sub   *nats.Subscription
	stats micro.EndpointStats
	data  Stats // what the endpoint adds to its stats as data
}

var _ micro.Service = (*microService)(nil)

func newMicro(nc *nats.Conn, name, version, desc string, metadata map[string]string) *microService {
	return &microService{nc: nc, desc: desc, started: time.Now().UTC(),
		identity: micro.ServiceIdentity{Name: name, ID: nuid.Next(), Version: version, Metadata: maps.Clone(metadata)}}
}

// start subscribes to the protocol's subjects.
func (ms *microService) start() error {
	ping, _ := json.Marshal(micro.Ping{ServiceIdentity: ms.identity, Type: micro.PingResponseType})
	for verb, answer := range map[micro.Verb]func() any{
		micro.PingVerb:  func() any { return json.RawMessage(ping) },
		micro.InfoVerb:  func() any { return ms.Info() },
		micro.StatsVerb: func() any { return ms.Stats() },
	} {
		handler := func(m *nats.Msg) {
			body, err := json.Marshal(answer())
			if err != nil {
				body = nil
			}
			m.Respond(body)
		}
		for _, kind := range [][2]string{{"", ""}, {ms.identity.Name, ""}, {ms.identity.Name, ms.identity.ID}} {
			subject, err := micro.ControlSubject(verb, kind[0], kind[1])
			if err != nil {
				return err
			}
			sub, err := ms.nc.Subscribe(subject, handler)
			if err != nil {
				return err
			}
			ms.mu.Lock()
			ms.verbSubs = append(ms.verbSubs, sub)
			ms.mu.Unlock()
		}
	}
	return nil
}

// add serves an endpoint: handle gets each of its requests.
func (ms *microService) add(name, subject, queue string, metadata map[string]string, handle func(*endpoint, *nats.Msg)) error {
	e := &endpoint{info: micro.EndpointInfo{Name: name, Subject: subject, QueueGroup: queue, Metadata: metadata}}
	e.stats = micro.EndpointStats{Name: name, Subject: subject, QueueGroup: queue}
	sub, err := ms.nc.QueueSubscribe(subject, queue, func(m *nats.Msg) { handle(e, m) })
	if err != nil {
		return err
	}
	e.sub = sub
	ms.mu.Lock()
	ms.endpoints = append(ms.endpoints, e)
	ms.mu.Unlock()
	return nil
}

// done records a request of e that took since start; errText is micro's
// text of its error answer ("" when it answered no error), stream says
// whether it was a streaming call.
func (ms *microService) done(e *endpoint, start time.Time, errText string, stream bool) {
	took := time.Since(start)
	ms.mu.Lock()
	defer ms.mu.Unlock()
	e.data.InFlight--
	e.stats.NumRequests++
	e.stats.ProcessingTime += took
	e.stats.AverageProcessingTime = e.stats.ProcessingTime / time.Duration(e.stats.NumRequests)
	e.data.Calls++
	if stream {
		e.data.Streams++
	}
	if errText != "" {
		e.stats.NumErrors++
		e.stats.LastError = errText
		e.data.Errors++
	}
}

// running counts a call of e in; done counts it out.
func (ms *microService) running(e *endpoint) {
	ms.mu.Lock()
	e.data.InFlight++
	ms.mu.Unlock()
}

// errorText is how micro's Request.Error records an error: "code:description".
func errorText(code int, message string) string {
	return strconv.Itoa(code) + ":" + headerText(message)
}

// Info is micro's info of the service.
func (ms *microService) Info() micro.Info {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	endpoints := make([]micro.EndpointInfo, 0, len(ms.endpoints))
	for _, e := range ms.endpoints {
		info := e.info
		info.Metadata = maps.Clone(info.Metadata)
		endpoints = append(endpoints, info)
	}
	id := ms.identity
	id.Metadata = maps.Clone(id.Metadata)
	return micro.Info{ServiceIdentity: id, Type: micro.InfoResponseType, Description: ms.desc, Endpoints: endpoints}
}

// Stats is micro's stats of the service: each endpoint's, with its own
// counts ([Stats]) as data.
func (ms *microService) Stats() micro.Stats {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	id := ms.identity
	id.Metadata = maps.Clone(id.Metadata)
	stats := micro.Stats{ServiceIdentity: id, Type: micro.StatsResponseType, Started: ms.started, Endpoints: make([]*micro.EndpointStats, 0, len(ms.endpoints))}
	for _, e := range ms.endpoints {
		es := e.stats
		es.Data, _ = json.Marshal(e.data)
		stats.Endpoints = append(stats.Endpoints, &es)
	}
	return stats
}

// Reset sets the counts of every endpoint to zero (calls in flight stay
// counted in) and the start time to now.
func (ms *microService) Reset() {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	for _, e := range ms.endpoints {
		e.stats = micro.EndpointStats{Name: e.stats.Name, Subject: e.stats.Subject, QueueGroup: e.stats.QueueGroup}
		e.data = Stats{InFlight: e.data.InFlight}
	}
	ms.started = time.Now().UTC()
}

// Stop drains the endpoints' subscriptions and the protocol's.
func (ms *microService) Stop() error {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.stopped {
		return nil
	}
	ms.stopped = true
	var errs []error
	for _, e := range ms.endpoints {
		if err := e.sub.Drain(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			errs = append(errs, fmt.Errorf("draining the subscription of %q: %w", e.info.Subject, err))
		}
	}
	for _, sub := range ms.verbSubs {
		if err := sub.Drain(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			errs = append(errs, fmt.Errorf("draining the subscription of %q: %w", sub.Subject, err))
		}
	}
	return errors.Join(errs...)
}

// Stopped reports whether Stop was called or the connection is closed.
func (ms *microService) Stopped() bool {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.stopped || ms.nc.IsClosed()
}

var errFixedEndpoints = errors.New("natsbridge: the endpoints of the service are its tool's functions; add none")

// AddEndpoint refuses: the endpoints of the service are its tool's functions.
func (ms *microService) AddEndpoint(string, micro.Handler, ...micro.EndpointOpt) error {
	return errFixedEndpoints
}

// AddGroup returns a group whose AddEndpoint refuses, as the service's does.
func (ms *microService) AddGroup(string, ...micro.GroupOpt) micro.Group { return fixedGroup{} }

type fixedGroup struct{}

func (fixedGroup) AddGroup(string, ...micro.GroupOpt) micro.Group { return fixedGroup{} }
func (fixedGroup) AddEndpoint(string, micro.Handler, ...micro.EndpointOpt) error {
	return errFixedEndpoints
}
