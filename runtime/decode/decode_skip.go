package decode

// Skipping values, required members and optional scalars of the Decoder.

// Skip skips the next value, checking its syntax. It does not recurse: nesting
// is tracked on a stack of open containers, and limited to maxSkipDepth levels
// like encoding/json's.
func (d *Decoder) Skip() {
	stack := d.stack[:0]
	defer func() { d.stack = stack[:0] }()
	for {
		// at a value
		c := d.peek()
		if c == 0 {
			return
		}
		switch c {
		case '{', '[':
			if d.depth+len(stack) >= maxSkipDepth {
				d.tooDeep(maxSkipDepth)
				return
			}
			d.pos++
			d.ws()
			if d.pos < len(d.data) && d.data[d.pos] == c+2 { // '}' or ']'
				d.pos++
				break
			}
			stack = append(stack, c)
			if c == '{' && !d.skipKey() {
				return
			}
			continue
		case '"':
			if !d.skipString() {
				return
			}
		case 't':
			d.literal("true")
		case 'f':
			d.literal("false")
		case 'n':
			d.literal("null")
		default:
			if _, ok := d.number(); !ok {
				return
			}
		}
		// after a value: close containers, or move to the next member or element
		for {
			if d.broken || len(stack) == 0 {
				return
			}
			d.ws()
			if d.pos >= len(d.data) {
				d.syntax("unexpected end of input")
				return
			}
			top := stack[len(stack)-1]
			switch d.data[d.pos] {
			case top + 2:
				d.pos++
				stack = stack[:len(stack)-1]
				continue
			case ',':
				d.pos++
				if top == '{' && !d.skipKey() {
					return
				}
			default:
				d.syntax("want ',' or the end of a container")
				return
			}
			break
		}
	}
}

func (d *Decoder) skipKey() bool {
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		d.syntax("want a member name")
		return false
	}
	if !d.skipString() {
		return false
	}
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		d.syntax("want ':' after a member name")
		return false
	}
	d.pos++
	return true
}

// skipString skips the string at d.pos (which is '"'), checking its syntax.
func (d *Decoder) skipString() bool {
	data := d.data
	for i := d.pos + 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return true
		case c < 0x20:
			d.pos = i
			d.syntax("control character in a string")
			return false
		case c == '\\':
			i++
			if i >= len(data) {
				break
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if _, n := d.hex4(i + 1); n < 0 {
					d.pos = i
					d.syntax("invalid \\u escape")
					return false
				}
				i += 4
			default:
				d.pos = i
				d.syntax("invalid escape in a string")
				return false
			}
		}
	}
	d.pos = len(data)
	d.syntax("unterminated string")
	return false
}

// Required records a "missing required member" violation for each name whose
// bit is clear in seen (bit i of seen[i/64] for names[i]): the required members
// of an object the generated decoder did not meet.
func (d *Decoder) Required(seen []uint64, names ...string) {
	for i, name := range names {
		if i/64 < len(seen) && seen[i/64]&(1<<(i%64)) == 0 {
			d.Missing(name)
		}
	}
}

// Slice decodes an array into *s with dec, the generated decoder of its
// elements: *s is an empty slice for [], and each element's violations are
// at its index. It reports whether the value was an array; any other value
// is a violation and leaves *s alone. Generated decoders call it for
// slices of named types, one line where a loop of its own would be eight.
func Slice[T any](d *Decoder, s *[]T, dec func(*Decoder, *T)) bool {
	if !d.Array() {
		return false
	}
	*s = []T{}
	for d.NextItem() {
		var e T
		dec(d, &e)
		*s = append(*s, e)
	}
	return true
}

// Mark returns where d is in its input, for Rewind.
func (d *Decoder) Mark() int { return d.pos }

// Rewind takes d back to mark, a Mark taken before the value just read, so
// that a second generated decoder reads the same value: the arguments of an
// OpenAPI operation whose request body is a struct they embed are read once
// for the parameters and once for the body's members, each decoder skipping
// the other's. It reports false, and leaves d where it is, after a syntax
// error (reported once) or a mark that is not in the input.
func (d *Decoder) Rewind(mark int) bool {
	if d.broken || mark < 0 || mark > d.pos {
		return false
	}
	d.pos = mark
	return true
}

// StringPtr reads an optional string: nil for null, else a pointer to it.
func (d *Decoder) StringPtr() *string {
	if d.IsNull() {
		return nil
	}
	v, _ := d.String()
	return &v
}

// IntPtr reads an optional integer: nil for null, else a pointer to it.
func (d *Decoder) IntPtr() *int64 {
	if d.IsNull() {
		return nil
	}
	v, _ := d.Int()
	return &v
}

// FloatPtr reads an optional number: nil for null, else a pointer to it.
func (d *Decoder) FloatPtr() *float64 {
	if d.IsNull() {
		return nil
	}
	v, _ := d.Float()
	return &v
}

// BoolPtr reads an optional boolean: nil for null, else a pointer to it.
func (d *Decoder) BoolPtr() *bool {
	if d.IsNull() {
		return nil
	}
	v, _ := d.Bool()
	return &v
}
