package otlphttp

import (
	"encoding/binary"
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
)

// The protobuf wire types this encoder writes.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

func appendBytes(b []byte, field int, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func appendString(b []byte, field int, s string) []byte {
	if s == "" {
		return b
	}
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendVarint(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.AppendUvarint(appendTag(b, field, wireVarint), v)
}

func appendFixed64(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint64(appendTag(b, field, wireFixed64), v)
}

func appendFixed32(b []byte, field int, v uint32) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint32(appendTag(b, field, wireFixed32), v)
}

// appendMessage appends the message enc writes as field, even when empty
// (an empty message is a present one).
func appendMessage(b []byte, field int, enc func([]byte) []byte) []byte {
	sub := enc(nil)
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(sub)))
	return append(b, sub...)
}

func unixNano(t interface{ UnixNano() int64 }) uint64 {
	n := t.UnixNano()
	if n < 0 {
		return 0
	}
	return uint64(n)
}

// encodeRequest is the ExportTraceServiceRequest of spans
// (opentelemetry/proto/collector/trace/v1): one ResourceSpans per resource,
// one ScopeSpans per instrumentation scope, in the order they first appear.
// S is sdktrace.ReadOnlySpan or tracing.ReadOnlySpan (whose methods the
// SDK's spans have too).
func encodeRequest[S tracing.ReadOnlySpan](spans []S) []byte {
	type scopeKey struct {
		res   *resource.Resource
		scope instrumentation.Scope
	}
	var resources []*resource.Resource
	scopes := map[*resource.Resource][]instrumentation.Scope{}
	groups := map[scopeKey][]tracing.ReadOnlySpan{}
	for _, s := range spans {
		res, sc := s.Resource(), s.InstrumentationScope()
		if _, ok := scopes[res]; !ok {
			resources = append(resources, res)
			scopes[res] = nil
		}
		k := scopeKey{res, sc}
		if _, ok := groups[k]; !ok {
			scopes[res] = append(scopes[res], sc)
		}
		groups[k] = append(groups[k], s)
	}
	var b []byte
	for _, res := range resources {
		b = appendMessage(b, 1, func(b []byte) []byte { // ResourceSpans
			b = appendMessage(b, 1, func(b []byte) []byte { return appendResource(b, res) })
			for _, sc := range scopes[res] {
				b = appendMessage(b, 2, func(b []byte) []byte { // ScopeSpans
					b = appendMessage(b, 1, func(b []byte) []byte { return appendScope(b, sc) })
					for _, s := range groups[scopeKey{res, sc}] {
						b = appendMessage(b, 2, func(b []byte) []byte { return appendSpan(b, s) })
					}
					return appendString(b, 3, sc.SchemaURL)
				})
			}
			if res != nil {
				b = appendString(b, 3, res.SchemaURL())
			}
			return b
		})
	}
	return b
}

func appendResource(b []byte, res *resource.Resource) []byte {
	if res == nil {
		return b
	}
	return appendAttributes(b, 1, res.Attributes())
}

func appendScope(b []byte, sc instrumentation.Scope) []byte {
	b = appendString(b, 1, sc.Name)
	b = appendString(b, 2, sc.Version)
	return appendAttributes(b, 3, sc.Attributes.ToSlice())
}

// Span flags (opentelemetry/proto/trace/v1 SpanFlags).
const (
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200
)

func appendSpan(b []byte, s tracing.ReadOnlySpan) []byte {
	sc, parent := s.SpanContext(), s.Parent()
	tid, sid := sc.TraceID(), sc.SpanID()
	b = appendBytes(b, 1, tid[:])
	b = appendBytes(b, 2, sid[:])
	b = appendString(b, 3, sc.TraceState().String())
	if parent.SpanID().IsValid() {
		psid := parent.SpanID()
		b = appendBytes(b, 4, psid[:])
	}
	b = appendString(b, 5, s.Name())
	b = appendVarint(b, 6, uint64(s.SpanKind()))
	b = appendFixed64(b, 7, unixNano(s.StartTime()))
	b = appendFixed64(b, 8, unixNano(s.EndTime()))
	b = appendAttributes(b, 9, s.Attributes())
	b = appendVarint(b, 10, uint64(s.DroppedAttributes()))
	for _, e := range s.Events() {
		b = appendMessage(b, 11, func(b []byte) []byte {
			b = appendFixed64(b, 1, unixNano(e.Time))
			b = appendString(b, 2, e.Name)
			b = appendAttributes(b, 3, e.Attributes)
			return appendVarint(b, 4, uint64(e.DroppedAttributeCount))
		})
	}
	b = appendVarint(b, 12, uint64(s.DroppedEvents()))
	for _, l := range s.Links() {
		b = appendMessage(b, 13, func(b []byte) []byte {
			ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
			b = appendBytes(b, 1, ltid[:])
			b = appendBytes(b, 2, lsid[:])
			b = appendString(b, 3, l.SpanContext.TraceState().String())
			b = appendAttributes(b, 4, l.Attributes)
			b = appendVarint(b, 5, uint64(l.DroppedAttributeCount))
			return appendFixed32(b, 6, spanFlags(l.SpanContext))
		})
	}
	b = appendVarint(b, 14, uint64(s.DroppedLinks()))
	if st := s.Status(); st.Code != codes.Unset {
		b = appendMessage(b, 15, func(b []byte) []byte {
			b = appendString(b, 2, st.Description)
			code := uint64(1) // STATUS_CODE_OK
			if st.Code == codes.Error {
				code = 2 // STATUS_CODE_ERROR
			}
			return appendVarint(b, 3, code)
		})
	}
	flags := uint32(sc.TraceFlags()) | flagHasIsRemote
	if parent.IsRemote() {
		flags |= flagIsRemote
	}
	return appendFixed32(b, 16, flags)
}

func spanFlags(sc trace.SpanContext) uint32 {
	f := uint32(sc.TraceFlags()) | flagHasIsRemote
	if sc.IsRemote() {
		f |= flagIsRemote
	}
	return f
}

// appendAttributes appends each attribute as a KeyValue of field.
func appendAttributes(b []byte, field int, attrs []attribute.KeyValue) []byte {
	for _, kv := range attrs {
		b = appendMessage(b, field, func(b []byte) []byte { return appendKeyValue(b, string(kv.Key), kv.Value) })
	}
	return b
}

func appendKeyValue(b []byte, key string, v attribute.Value) []byte {
	b = appendString(b, 1, key)
	return appendMessage(b, 2, func(b []byte) []byte { return appendAnyValue(b, v) })
}

// appendAnyValue writes v as an AnyValue: scalars in their fields (written
// even when zero, as the oneof requires), slices as an ArrayValue, maps as
// a KeyValueList.
func appendAnyValue(b []byte, v attribute.Value) []byte {
	switch v.Type() {
	case attribute.BOOL:
		b = appendTag(b, 2, wireVarint)
		if v.AsBool() {
			return append(b, 1)
		}
		return append(b, 0)
	case attribute.INT64:
		return binary.AppendUvarint(appendTag(b, 3, wireVarint), uint64(v.AsInt64()))
	case attribute.FLOAT64:
		return binary.LittleEndian.AppendUint64(appendTag(b, 4, wireFixed64), math.Float64bits(v.AsFloat64()))
	case attribute.STRING:
		b = appendTag(b, 1, wireBytes)
		s := v.AsString()
		b = binary.AppendUvarint(b, uint64(len(s)))
		return append(b, s...)
	case attribute.BYTESLICE:
		bs := v.AsByteSlice()
		b = appendTag(b, 7, wireBytes)
		b = binary.AppendUvarint(b, uint64(len(bs)))
		return append(b, bs...)
	case attribute.BOOLSLICE:
		return appendArray(b, len(v.AsBoolSlice()), func(i int) attribute.Value { return attribute.BoolValue(v.AsBoolSlice()[i]) })
	case attribute.INT64SLICE:
		s := v.AsInt64Slice()
		return appendArray(b, len(s), func(i int) attribute.Value { return attribute.Int64Value(s[i]) })
	case attribute.FLOAT64SLICE:
		s := v.AsFloat64Slice()
		return appendArray(b, len(s), func(i int) attribute.Value { return attribute.Float64Value(s[i]) })
	case attribute.STRINGSLICE:
		s := v.AsStringSlice()
		return appendArray(b, len(s), func(i int) attribute.Value { return attribute.StringValue(s[i]) })
	case attribute.SLICE:
		s := v.AsSlice()
		return appendArray(b, len(s), func(i int) attribute.Value { return s[i] })
	case attribute.MAP:
		return appendMessage(b, 6, func(b []byte) []byte { // KeyValueList
			for _, kv := range v.AsMap() {
				b = appendMessage(b, 1, func(b []byte) []byte { return appendKeyValue(b, string(kv.Key), kv.Value) })
			}
			return b
		})
	}
	return b // EMPTY: an AnyValue with no value set
}

func appendArray(b []byte, n int, at func(int) attribute.Value) []byte {
	return appendMessage(b, 5, func(b []byte) []byte { // ArrayValue
		for i := range n {
			b = appendMessage(b, 1, func(b []byte) []byte { return appendAnyValue(b, at(i)) })
		}
		return b
	})
}
