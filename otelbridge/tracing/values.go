package tracing

import (
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
)

// truncateValue applies the attribute value length limit to v, as the
// SDK's spans do: strings longer than limit bytes are cut to limit
// characters (their invalid UTF-8 dropped first), byte slices to limit
// bytes, in string slices, slices and maps too. It reports whether v
// changed. limit must not be negative.
func truncateValue(v attribute.Value, limit int) (attribute.Value, bool) {
	switch v.Type() {
	case attribute.STRING:
		if s := v.AsString(); len(s) > limit {
			if t := truncateString(s, limit); t != s {
				return attribute.StringValue(t), true
			}
		}
	case attribute.BYTESLICE:
		if b := v.AsByteSlice(); len(b) > limit {
			return attribute.ByteSliceValue(b[:limit]), true
		}
	case attribute.STRINGSLICE:
		ss := v.AsStringSlice()
		changed := false
		for i, s := range ss {
			if len(s) > limit {
				t := truncateString(s, limit)
				changed = changed || t != s
				ss[i] = t
			}
		}
		if changed {
			return attribute.StringSliceValue(ss), true
		}
	case attribute.SLICE:
		vs := v.AsSlice()
		changed := false
		for i, e := range vs {
			if t, ok := truncateValue(e, limit); ok {
				vs[i], changed = t, true
			}
		}
		if changed {
			return attribute.SliceValue(vs...), true
		}
	case attribute.MAP:
		kvs := v.AsMap()
		changed := false
		for i, kv := range kvs {
			if t, ok := truncateValue(kv.Value, limit); ok {
				kvs[i].Value, changed = t, true
			}
		}
		if changed {
			return attribute.MapValue(kvs...), true
		}
	}
	return v, false
}

// truncateString returns the first limit characters of s, its invalid
// UTF-8 dropped.
func truncateString(s string, limit int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	n := 0
	for i := range s {
		if n == limit {
			return s[:i]
		}
		n++
	}
	return s
}

// truncate applies the value length limit to kv (none when limit < 0).
func truncate(kv attribute.KeyValue, limit int) attribute.KeyValue {
	if limit >= 0 {
		kv.Value, _ = truncateValue(kv.Value, limit)
	}
	return kv
}

// dedupeValue leaves one entry per key in the maps of v (the last given,
// as the SDK does), in slices and maps too. It reports whether v changed.
func dedupeValue(v attribute.Value) (attribute.Value, bool) {
	switch v.Type() {
	case attribute.SLICE:
		vs := v.AsSlice() // a copy
		changed := false
		for i, e := range vs {
			if d, ok := dedupeValue(e); ok {
				vs[i], changed = d, true
			}
		}
		if changed {
			return attribute.SliceValue(vs...), true
		}
	case attribute.MAP:
		kvs := v.AsMap() // a copy, sorted by key (stably: the last of equal keys is the last given)
		out := kvs[:0]
		changed := false
		for i := 0; i < len(kvs); {
			j := i + 1
			for j < len(kvs) && kvs[j].Key == kvs[i].Key {
				j++
			}
			kv := kvs[j-1]
			if d, ok := dedupeValue(kv.Value); ok {
				kv.Value, changed = d, true
			}
			changed = changed || j-i > 1
			out = append(out, kv)
			i = j
		}
		if changed {
			return attribute.MapValue(out...), true
		}
	}
	return v, false
}

// normalize is kv as a span keeps it: its maps' keys deduplicated, the
// value length limit applied (none when limit < 0).
func normalize(kv attribute.KeyValue, limit int) attribute.KeyValue {
	kv.Value, _ = dedupeValue(kv.Value)
	return truncate(kv, limit)
}

// dedupeValues returns kvs with the maps of their values deduplicated,
// kvs itself if nothing changed, else a copy when owned is false.
func dedupeValues(kvs []attribute.KeyValue, owned bool) []attribute.KeyValue {
	for i, kv := range kvs {
		d, ok := dedupeValue(kv.Value)
		if !ok {
			continue
		}
		if !owned {
			kvs, owned = append([]attribute.KeyValue(nil), kvs...), true
		}
		kvs[i].Value = d
	}
	return kvs
}
