package tracing

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	goruntime "runtime"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// Tracer is the trace.Tracer of [Provider.Tracer].
type Tracer struct {
	embedded.Tracer

	p     *Provider
	scope instrumentation.Scope
}

var _ trace.Tracer = (*Tracer)(nil)

// Start starts a span, the child of the span of ctx unless
// trace.WithNewRoot is given, and returns it with a context holding it.
func (t *Tracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	cfg := trace.NewSpanStartConfig(opts...)
	return t.start(ctx, name, cfg.SpanKind(), cfg.Attributes(), true, &cfg)
}

// StartShared starts a span of kind with the attributes attrs, as Start
// with trace.WithSpanKind(kind) and trace.WithAttributes(attrs...) does,
// without copying attrs: the caller must never modify attrs (the span
// copies them before it changes its attributes, on SetAttributes). It is
// for callers that make the attributes of their spans once, and saves
// Start's copy of them and of its options.
func (t *Tracer) StartShared(ctx context.Context, name string, kind trace.SpanKind, attrs []attribute.KeyValue) (context.Context, trace.Span) {
	return t.start(ctx, name, kind, attrs, false, nil)
}

// start starts a span with the attributes attrs (the span's own if owned)
// and, when cfg is not nil, its links, timestamp and WithNewRoot.
func (t *Tracer) start(ctx context.Context, name string, kind trace.SpanKind, attrs []attribute.KeyValue, owned bool, cfg *trace.SpanConfig) (context.Context, trace.Span) {
	if ctx == nil {
		ctx = context.Background()
	}
	parent := trace.SpanFromContext(ctx) // one lookup in ctx for the parent and its SpanContext
	if p, ok := parent.(*span); ok {
		p.addChild()
	}
	var psc trace.SpanContext
	var links []trace.Link
	if cfg != nil && cfg.NewRoot() {
		ctx = trace.ContextWithSpanContext(ctx, psc)
	} else {
		psc = parent.SpanContext()
	}
	if cfg != nil {
		links = cfg.Links()
	}
	scc := trace.SpanContextConfig{TraceID: psc.TraceID(), SpanID: newSpanID()}
	if !scc.TraceID.IsValid() {
		scc.TraceID = newTraceID()
	}
	var sr sdktrace.SamplingResult
	if t.p.parentAlwaysOn { // the default sampler's decision, without a lookup of the parent again
		sr.Decision, sr.Tracestate = sdktrace.RecordAndSample, psc.TraceState()
		if psc.IsValid() && !psc.IsSampled() {
			sr.Decision = sdktrace.Drop
		}
	} else {
		sr = t.p.sampler.ShouldSample(sdktrace.SamplingParameters{
			ParentContext: ctx, TraceID: scc.TraceID, Name: name, Kind: kind, Attributes: attrs, Links: links,
		})
	}
	scc.TraceState = sr.Tracestate
	if sr.Decision == sdktrace.RecordAndSample {
		scc.TraceFlags = psc.TraceFlags() | trace.FlagsSampled
	} else {
		scc.TraceFlags = psc.TraceFlags() &^ trace.FlagsSampled
	}
	if sr.Decision == sdktrace.Drop {
		ns := &nonRecordingSpan{p: t.p, sc: trace.NewSpanContext(scc)}
		return trace.ContextWithSpan(ctx, ns), ns
	}
	s := &span{
		tracer: t, name: name, traceID: scc.TraceID, spanID: scc.SpanID, flags: scc.TraceFlags,
		kind:     uint8(trace.ValidateSpanKind(kind)),
		parentID: psc.SpanID(), parentFlags: psc.TraceFlags(), parentRemote: psc.IsRemote(),
		parentTraced: psc.TraceID().IsValid(), // then it is the span's trace ID
	}
	s.setTraceStates(psc.TraceState(), sr.Tracestate, t.p.parentAlwaysOn)
	if cfg != nil {
		s.start = cfg.Timestamp()
	}
	if s.start.IsZero() {
		s.start = time.Now()
	}
	for _, l := range links {
		s.addLink(l)
	}
	if len(sr.Attributes) > 0 || !s.adopt(attrs, owned) {
		s.setAttributes(sr.Attributes)
		s.setAttributes(attrs)
	}
	if ownContext {
		return &spanContext{ctx, s}, s
	}
	return trace.ContextWithSpan(ctx, s), s
}

// spanContext is trace.ContextWithSpan(parent, s) in half the memory (24 B,
// where context.WithValue makes 48) and a shorter lookup: it answers
// spanKey, the key trace.SpanFromContext asks for, with s, and any other
// key as parent does.
type spanContext struct {
	context.Context
	s *span
}

func (c *spanContext) Value(key any) any {
	if key == spanKey {
		return c.s
	}
	return c.Context.Value(key)
}

// String names the context as context.WithValue's do.
func (c *spanContext) String() string {
	parent := "context"
	if s, ok := c.Context.(fmt.Stringer); ok {
		parent = s.String()
	}
	return parent + ".WithValue(span)"
}

// spanKey is the key trace.ContextWithSpan puts a span under, which the
// trace package does not export: the key trace.SpanFromContext asks a
// context for.
var spanKey = func() any {
	p := &keyProbe{Context: context.Background()}
	trace.SpanFromContext(p)
	return p.key
}()

// keyProbe is a context that records the first key it is asked for.
type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	if p.key == nil {
		p.key = key
	}
	return nil
}

// ownContext is whether spanContext works as trace.ContextWithSpan's
// context does (checked once: else start uses trace.ContextWithSpan).
var ownContext = func() bool {
	s := &span{}
	got, ok := trace.SpanFromContext(&spanContext{context.Background(), s}).(*span)
	return spanKey != nil && ok && got == s
}()

// newTraceID and newSpanID return random IDs, never zero.
func newTraceID() (id trace.TraceID) {
	for !id.IsValid() {
		binary.BigEndian.PutUint64(id[:8], rand.Uint64())
		binary.BigEndian.PutUint64(id[8:], rand.Uint64())
	}
	return id
}

func newSpanID() (id trace.SpanID) {
	for !id.IsValid() {
		binary.BigEndian.PutUint64(id[:], rand.Uint64())
	}
	return id
}

// span is a recording span, and once ended the ReadOnlySpan the exporter
// reads. It is packed (192 B, where its SpanContext, its parent's and its
// times as the SDK's types would take 320): its SpanContext and its
// parent's are kept as their parts, the trace states behind pointers (most
// spans have none), its end as the time since its start, and what few
// spans have in more. The fields set by start and never changed are read
// without the lock.
type span struct {
	embedded.Span

	tracer *Tracer
	start  time.Time
	// The span's trace state and its parent's, nil when empty: one
	// allocation shared by both when they are the same.
	state, parentState *trace.TraceState
	traceID            trace.TraceID
	spanID, parentID   trace.SpanID
	flags, parentFlags trace.TraceFlags
	kind               uint8 // a trace.SpanKind
	parentRemote       bool
	parentTraced       bool // the parent has a trace ID (the span's), else none

	mu           sync.Mutex // of the fields below
	ended        bool
	shared       bool // attrs is not the span's own: copied before a change
	dirty        bool // attrs may hold a key twice: deduplicated when read
	status       codes.Code
	end          time.Duration // since start, once ended (unless more.endAt is set)
	name         string
	attrs        []attribute.KeyValue
	children     int32
	droppedAttrs int32
	more         *more
}

// more is what a span has only once it has events or links, a status with
// a description, or an end time given to End: most have none of them, and
// a smaller span is less memory to allocate and collect.
type more struct {
	events        []sdktrace.Event
	links         []sdktrace.Link
	droppedEvents int
	droppedLinks  int
	endAt         time.Time // End's trace.WithTimestamp
	statusDesc    string    // of the status, when Error
}

// setTraceStates sets the trace states of the span and of its parent, a
// pointer to one when they are the same (same: the state is the parent's,
// as the default sampler leaves it).
func (s *span) setTraceStates(parent, own trace.TraceState, same bool) {
	// (new and a copy: taking the address of a parameter would move it to
	// the heap at each call)
	if parent.Len() > 0 {
		s.parentState = new(trace.TraceState)
		*s.parentState = parent
	}
	switch {
	case same:
		s.state = s.parentState
	case own.Len() > 0:
		s.state = new(trace.TraceState)
		*s.state = own
	}
}

// extra returns s.more, made if need be.
func (s *span) extra() *more {
	if s.more == nil {
		s.more = &more{}
	}
	return s.more
}

var (
	_ trace.Span   = (*span)(nil)
	_ ReadOnlySpan = (*span)(nil)
)

func (s *span) limits() *sdktrace.SpanLimits { return &s.tracer.p.limits }

// adopt makes attrs the span's attributes without copying them (owned: the
// span's own already), when they are all valid and within the limit.
func (s *span) adopt(attrs []attribute.KeyValue, owned bool) bool {
	if len(attrs) == 0 {
		return true
	}
	if limit := s.limits().AttributeCountLimit; limit >= 0 && len(attrs) > limit {
		return false
	}
	length := s.limits().AttributeValueLengthLimit
	for _, kv := range attrs {
		if !kv.Valid() {
			return false
		}
		switch kv.Value.Type() { // most are scalars: nothing to cut or deduplicate
		case attribute.BOOL, attribute.INT64, attribute.FLOAT64:
			continue
		case attribute.STRING:
			if length < 0 || len(kv.Value.AsString()) <= length {
				continue
			}
		}
		if length >= 0 {
			if _, long := truncateValue(kv.Value, length); long {
				return false
			}
		}
		if _, dup := dedupeValue(kv.Value); dup {
			return false
		}
	}
	s.attrs, s.shared, s.dirty = attrs, !owned, len(attrs) > 1
	return true
}

// SpanContext returns the span's SpanContext.
func (s *span) SpanContext() trace.SpanContext {
	c := trace.SpanContextConfig{TraceID: s.traceID, SpanID: s.spanID, TraceFlags: s.flags}
	if s.state != nil {
		c.TraceState = *s.state
	}
	return trace.NewSpanContext(c)
}

// IsRecording reports whether the span has not ended.
func (s *span) IsRecording() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.ended
}

// SetStatus sets the status: Ok wins over Error, Error over Unset; the
// description is kept for Error only.
func (s *span) SetStatus(code codes.Code, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.status > code {
		return
	}
	s.status = code
	if code != codes.Error {
		description = ""
	}
	if description != "" || s.more != nil {
		s.extra().statusDesc = description
	}
}

// SetAttributes sets attributes: a key set again keeps its place and takes
// the last value; beyond the limit, new keys are dropped (counted).
func (s *span) SetAttributes(kvs ...attribute.KeyValue) {
	if len(kvs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.setAttributes(kvs)
	}
}

func (s *span) setAttributes(kvs []attribute.KeyValue) {
	if len(kvs) == 0 {
		return
	}
	limit := s.limits().AttributeCountLimit
	if limit == 0 {
		s.droppedAttrs += int32(len(kvs))
		return
	}
	n := len(s.attrs) + len(kvs)
	if limit > 0 {
		n = min(n, limit)
	}
	s.writable(n)
	if limit > 0 && len(s.attrs)+len(kvs) > limit {
		s.setOverLimit(limit, kvs)
		return
	}
	for _, kv := range kvs {
		if !kv.Valid() {
			s.droppedAttrs++
			continue
		}
		s.attrs = append(s.attrs, normalize(kv, s.limits().AttributeValueLengthLimit))
		s.dirty = true
	}
}

// writable makes attrs the span's own, with room for n.
func (s *span) writable(n int) {
	if !s.shared {
		return
	}
	attrs := make([]attribute.KeyValue, len(s.attrs), max(n, len(s.attrs)))
	copy(attrs, s.attrs)
	s.attrs, s.shared = attrs, false
}

// setOverLimit sets kvs when they may not all fit: the attributes are
// deduplicated, keys set already take their new value, new keys are added
// while there is room.
func (s *span) setOverLimit(limit int, kvs []attribute.KeyValue) {
	index := make(map[attribute.Key]int, len(s.attrs)+len(kvs))
	s.dedupe(index)
	for _, kv := range kvs {
		switch i, ok := index[kv.Key]; {
		case !kv.Valid():
			s.droppedAttrs++
		case ok:
			s.attrs[i] = normalize(kv, s.limits().AttributeValueLengthLimit)
		case len(s.attrs) >= limit:
			s.droppedAttrs++
		default:
			s.attrs = append(s.attrs, normalize(kv, s.limits().AttributeValueLengthLimit))
			index[kv.Key] = len(s.attrs) - 1
		}
	}
}

// dedupe leaves one attribute per key, in the place of its first, with the
// value of its last; index is filled with their places.
func (s *span) dedupe(index map[attribute.Key]int) {
	unique := s.attrs[:0]
	for _, kv := range s.attrs {
		if i, ok := index[kv.Key]; ok {
			unique[i] = kv
		} else {
			unique = append(unique, kv)
			index[kv.Key] = len(unique) - 1
		}
	}
	clear(s.attrs[len(unique):])
	s.attrs, s.dirty = unique, false
}

// dedupeIfDirty deduplicates the attributes if a key may be there twice,
// copying them first only if one is.
func (s *span) dedupeIfDirty() {
	if !s.dirty {
		return
	}
	if len(s.attrs) <= 16 && !hasDuplicateKey(s.attrs) {
		s.dirty = false
		return
	}
	s.writable(len(s.attrs))
	s.dedupe(make(map[attribute.Key]int, len(s.attrs)))
}

func hasDuplicateKey(kvs []attribute.KeyValue) bool {
	for i := range kvs {
		for j := i + 1; j < len(kvs); j++ {
			if kvs[i].Key == kvs[j].Key {
				return true
			}
		}
	}
	return false
}

// End ends the span (at the time of trace.WithTimestamp, if given) and
// queues it for export if it is sampled. A panic passing through a
// deferred End is recorded as an "exception" event and goes on.
func (s *span) End(opts ...trace.SpanEndOption) {
	end := time.Since(s.start) // monotonic
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	var cfg trace.SpanConfig
	if len(opts) > 0 {
		cfg = trace.NewSpanEndConfig(opts...)
		if t := cfg.Timestamp(); !t.IsZero() {
			s.extra().endAt = t
		}
	}
	if recovered := recover(); recovered != nil {
		defer panic(recovered)
		eopts := []trace.EventOption{trace.WithAttributes(
			semconv.ExceptionType(typeName(recovered)), semconv.ExceptionMessage(fmt.Sprint(recovered)))}
		if cfg.StackTrace() {
			eopts = append(eopts, trace.WithAttributes(semconv.ExceptionStacktrace(stack())))
		}
		s.addEvent(semconv.ExceptionEventName, eopts)
	}
	s.end, s.ended = end, true
	s.mu.Unlock()
	if s.flags.IsSampled() {
		s.tracer.p.batch.Add(s)
	}
}

// RecordError adds an "exception" event of err (its type and message, and
// a stack trace with trace.WithStackTrace(true)); a nil err is ignored.
func (s *span) RecordError(err error, opts ...trace.EventOption) {
	if err == nil || !s.IsRecording() {
		return
	}
	opts = append(opts, trace.WithAttributes(semconv.ExceptionType(typeName(err)), semconv.ExceptionMessage(err.Error())))
	if c := trace.NewEventConfig(opts...); c.StackTrace() {
		opts = append(opts, trace.WithAttributes(semconv.ExceptionStacktrace(stack())))
	}
	s.AddEvent(semconv.ExceptionEventName, opts...)
}

// typeName is the type of v as the SDK names it: package path and name,
// else the type's text ("*errors.errorString").
func typeName(v any) string {
	t := reflect.TypeOf(v)
	if t.PkgPath() == "" && t.Name() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}

func stack() string {
	buf := make([]byte, 2048)
	return string(buf[:goruntime.Stack(buf, false)])
}

// AddEvent adds an event; beyond the limit, the oldest is dropped.
func (s *span) AddEvent(name string, opts ...trace.EventOption) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.addEvent(name, opts)
	}
}

func (s *span) addEvent(name string, opts []trace.EventOption) {
	c := trace.NewEventConfig(opts...)
	e := sdktrace.Event{Name: name, Attributes: dedupeValues(c.Attributes(), true), Time: c.Timestamp()}
	e.Attributes, e.DroppedAttributeCount = limitAttrs(e.Attributes, s.limits().AttributePerEventCountLimit)
	m := s.extra()
	m.events = appendEvicting(m.events, e, s.limits().EventCountLimit, &m.droppedEvents)
}

// limitAttrs keeps the first limit attributes of kvs (all if limit < 0).
func limitAttrs(kvs []attribute.KeyValue, limit int) ([]attribute.KeyValue, int) {
	switch {
	case limit == 0 && len(kvs) > 0:
		return nil, len(kvs)
	case limit > 0 && len(kvs) > limit:
		return kvs[:limit], len(kvs) - limit
	}
	return kvs, 0
}

// appendEvicting appends v to q, dropping q's oldest when q holds limit
// (nothing kept when limit is 0, no limit when it is negative).
func appendEvicting[T any](q []T, v T, limit int, dropped *int) []T {
	if limit == 0 {
		*dropped++
		return q
	}
	if limit > 0 && len(q) >= limit {
		copy(q, q[1:])
		q = q[:limit-1]
		*dropped++
	}
	return append(q, v)
}

// AddLink adds a link; beyond the limit, the oldest is dropped. A link
// with neither a valid SpanContext nor attributes nor trace state is
// ignored.
func (s *span) AddLink(l trace.Link) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.addLink(l)
	}
}

func (s *span) addLink(l trace.Link) {
	if !l.SpanContext.IsValid() && len(l.Attributes) == 0 && l.SpanContext.TraceState().Len() == 0 {
		return
	}
	sl := sdktrace.Link{SpanContext: l.SpanContext}
	sl.Attributes, sl.DroppedAttributeCount = limitAttrs(dedupeValues(l.Attributes, false), s.limits().AttributePerLinkCountLimit)
	m := s.extra()
	m.links = appendEvicting(m.links, sl, s.limits().LinkCountLimit, &m.droppedLinks)
}

// SetName renames the span.
func (s *span) SetName(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.name = name
	}
}

// TracerProvider returns the span's provider.
func (s *span) TracerProvider() trace.TracerProvider { return s.tracer.p }

func (s *span) addChild() {
	s.mu.Lock()
	if !s.ended {
		s.children++
	}
	s.mu.Unlock()
}

// Name returns the span's name.
func (s *span) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

// Parent returns the SpanContext of the span's parent.
func (s *span) Parent() trace.SpanContext {
	c := trace.SpanContextConfig{SpanID: s.parentID, TraceFlags: s.parentFlags, Remote: s.parentRemote}
	if s.parentTraced {
		c.TraceID = s.traceID
	}
	if s.parentState != nil {
		c.TraceState = *s.parentState
	}
	return trace.NewSpanContext(c)
}

// SpanKind returns the span's kind.
func (s *span) SpanKind() trace.SpanKind { return trace.SpanKind(s.kind) }

// StartTime returns when the span started.
func (s *span) StartTime() time.Time { return s.start }

// EndTime returns when the span ended (zero while recording).
func (s *span) EndTime() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.ended:
		return time.Time{}
	case s.more != nil && !s.more.endAt.IsZero():
		return s.more.endAt
	}
	return s.start.Add(s.end)
}

// Attributes returns the span's attributes, one per key.
func (s *span) Attributes() []attribute.KeyValue {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dedupeIfDirty()
	s.shared = s.shared || len(s.attrs) > 0 // the caller holds them: copied before a change
	return s.attrs
}

// Links returns the span's links (a copy while it records).
func (s *span) Links() []sdktrace.Link {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.more == nil {
		return nil
	}
	if !s.ended {
		return append([]sdktrace.Link(nil), s.more.links...)
	}
	return s.more.links
}

// Events returns the span's events (a copy while it records).
func (s *span) Events() []sdktrace.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.more == nil {
		return nil
	}
	if !s.ended {
		return append([]sdktrace.Event(nil), s.more.events...)
	}
	return s.more.events
}

// Status returns the span's status.
func (s *span) Status() sdktrace.Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := sdktrace.Status{Code: s.status}
	if s.more != nil {
		st.Description = s.more.statusDesc
	}
	return st
}

// InstrumentationScope returns the scope of the span's tracer.
func (s *span) InstrumentationScope() instrumentation.Scope { return s.tracer.scope }

// Resource returns the provider's resource.
func (s *span) Resource() *resource.Resource { return s.tracer.p.res }

// DroppedAttributes returns the number of attributes dropped (invalid, or
// beyond the limit).
func (s *span) DroppedAttributes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(s.droppedAttrs)
}

// DroppedLinks returns the number of links dropped beyond the limit.
func (s *span) DroppedLinks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.more == nil {
		return 0
	}
	return s.more.droppedLinks
}

// DroppedEvents returns the number of events dropped beyond the limit.
func (s *span) DroppedEvents() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.more == nil {
		return 0
	}
	return s.more.droppedEvents
}

// ChildSpanCount returns the number of spans started as the span's
// children while it recorded.
func (s *span) ChildSpanCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(s.children)
}

// nonRecordingSpan is a span the sampler dropped: it carries its
// SpanContext and records nothing.
type nonRecordingSpan struct {
	embedded.Span
	p  *Provider
	sc trace.SpanContext
}

func (s *nonRecordingSpan) SpanContext() trace.SpanContext          { return s.sc }
func (s *nonRecordingSpan) IsRecording() bool                       { return false }
func (s *nonRecordingSpan) SetStatus(codes.Code, string)            {}
func (s *nonRecordingSpan) SetAttributes(...attribute.KeyValue)     {}
func (s *nonRecordingSpan) End(...trace.SpanEndOption)              {}
func (s *nonRecordingSpan) RecordError(error, ...trace.EventOption) {}
func (s *nonRecordingSpan) AddEvent(string, ...trace.EventOption)   {}
func (s *nonRecordingSpan) AddLink(trace.Link)                      {}
func (s *nonRecordingSpan) SetName(string)                          {}
func (s *nonRecordingSpan) TracerProvider() trace.TracerProvider    { return s.p }
