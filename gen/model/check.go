package model

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/opentoolgen/opentoolgen/runtime/decode"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// ConstraintsOf returns the constraints of the schema s that apply to a value
// of kind k, nil when there are none: the one reading of a served schema's
// keywords into the checks of the decoders, for every input kind. Loaders put
// in s only what the decoders can check (a pattern Go's regexp takes, a
// format decode.FormatChecked knows, a const of the value's type); a
// pattern still needs its variable (Naming.Pattern, or the OpenTool
// builder's).
//
// Kinds without checks of their own (RefTime, RefBytes, RefAny, RefRaw,
// RefNamed) get none: a named type carries its own. A date (RefDate) gets
// those of a string but its format, which its type checks.
func ConstraintsOf(s *document.Schema, k RefKind) *Constraints {
	if s == nil {
		return nil
	}
	c := &Constraints{}
	switch k {
	case RefInt, RefFloat:
		c.Minimum, c.Maximum = clone(s.Minimum), clone(s.Maximum)
		if v := s.ExclusiveMinimum; v != nil && (c.Minimum == nil || *v >= *c.Minimum) {
			c.Minimum, c.ExclusiveMinimum = clone(v), true
		}
		if v := s.ExclusiveMaximum; v != nil && (c.Maximum == nil || *v <= *c.Maximum) {
			c.Maximum, c.ExclusiveMaximum = clone(v), true
		}
		if m := s.MultipleOf; m != nil && *m > 0 && !math.IsInf(*m, 0) {
			c.MultipleOf = clone(m)
		}
		c.Const = constOf(s.Const, k)
	case RefString, RefDate:
		c.MinLength, c.MaxLength = clone(s.MinLength), clone(s.MaxLength)
		c.Pattern = s.Pattern
		if k == RefString && decode.FormatChecked(s.Format) {
			c.Format = s.Format // a date's type checks its format
		}
		c.Const = constOf(s.Const, RefString)
	case RefBool:
		c.Const = constOf(s.Const, k)
	case RefSlice:
		c.MinItems, c.MaxItems = clone(s.MinItems), clone(s.MaxItems)
		c.UniqueItems = s.UniqueItems
	case RefMap:
		c.MinProperties, c.MaxProperties = clone(s.MinProperties), clone(s.MaxProperties)
	}
	if *c == (Constraints{}) {
		return nil
	}
	return c
}

func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// constOf reads a const of a value of kind k: a string, int64, float64 or
// bool; nil when there is none or it is not of that kind.
func constOf(raw json.RawMessage, k RefKind) any {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	switch k {
	case RefString:
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case RefBool:
		var b bool
		if json.Unmarshal(raw, &b) == nil {
			return b
		}
	case RefInt:
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			if i, err := n.Int64(); err == nil {
				return i
			}
			if f, err := n.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
				return int64(f)
			}
		}
	case RefFloat:
		var f float64
		if json.Unmarshal(raw, &f) == nil {
			return f
		}
	}
	return nil
}
