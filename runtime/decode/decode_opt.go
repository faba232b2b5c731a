package decode

// Optional members. Generated decoders read an optional member whose null
// means absent with the helpers below, one line each: null leaves the field
// as it is (nil, unless the member came twice), any other value is decoded
// as the field's type says.
//
//	case "manager":
//		Ptr(d, &x.Manager, decodeUser)
//	case "tags":
//		if OptionalSlice(d, &x.Tags, decodeTag) {
//			CheckUnique(d, x.Tags)
//		}
//	case "top":
//		if v, ok := d.OptInt(&x.Top); ok {
//			CheckMin(d, float64(v), 0, false)
//		}

// Ptr decodes an optional value with dec into a new T that *p then points
// to; null leaves *p as it is.
func Ptr[T any](d *Decoder, p **T, dec func(*Decoder, *T)) {
	if d.IsNull() {
		return
	}
	var v T
	dec(d, &v)
	*p = &v
}

// OptionalSlice is [Slice] for an optional member: null leaves *s as it is
// and reports false, as any value that is not an array does.
func OptionalSlice[T any](d *Decoder, s *[]T, dec func(*Decoder, *T)) bool {
	if d.IsNull() {
		return false
	}
	return Slice(d, s, dec)
}

// OptInt reads an optional integer that has checks into *p: null leaves *p
// as it is and returns false. Any other value sets *p to a new int64 holding
// it, or 0 when it is not an integer of the range of int64 (a violation, as
// [Decoder.Int] records), and returns it and whether it was one, so that the
// caller checks only an integer read.
func (d *Decoder) OptInt(p **int64) (int64, bool) {
	if d.IsNull() {
		return 0, false
	}
	v, ok := d.Int()
	*p = &v
	return v, ok
}

// OptFloat is [Decoder.OptInt] for a number ([Decoder.Float]).
func (d *Decoder) OptFloat(p **float64) (float64, bool) {
	if d.IsNull() {
		return 0, false
	}
	v, ok := d.Float()
	*p = &v
	return v, ok
}

// OptString is [Decoder.OptInt] for a string ([Decoder.String]).
func (d *Decoder) OptString(p **string) (string, bool) {
	if d.IsNull() {
		return "", false
	}
	v, ok := d.String()
	*p = &v
	return v, ok
}
