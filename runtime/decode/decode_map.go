package decode

import (
	"encoding/json"
	"strconv"
)

// decodeSwap is the input the Decoder returns to once the object Map made of
// a map's entries is read: the original data, the position after the
// entries, and the number of path frames below the made object's.
type decodeSwap struct {
	data   []byte
	pos    int
	frames int
}

// maxMapEntries bounds the entries Map reads into one map (a request body
// is bounded too; this keeps the set of keys seen small).
const maxMapEntries = 100_000

// Map starts reading a map (an object whose members all take one schema),
// as Object does, and also accepts the map as the array of entries that
// strict declarations write for it (package runtime/declare): [{"key": K,
// "value": V}, …] is read as the object {K: V, …}, so that a strict model's
// call decodes to the same map. Each entry must be an object with a string
// "key", a "value" and no other member, and no key may come twice; each
// violation names the entry (/labels/2/key). Violations inside a value
// name it by its key (/labels/env), as they would in the object form.
//
// Generated decoders call Map where the schema says map, and Object
// everywhere else: nowhere else is an array read as an object. A response
// (Response) takes only the object form: the entries are what a model
// sends, not what an API that declares a map may answer.
func (d *Decoder) Map() bool {
	if d.peek() != '[' || d.response {
		return d.Object()
	}
	obj, ok := d.entriesObject()
	if !ok {
		return false
	}
	d.swaps = append(d.swaps, decodeSwap{data: d.data, pos: d.pos, frames: len(d.path)})
	d.data, d.pos = obj, 0
	return d.Object()
}

// resume returns to the input Map left, when the made object whose frame
// Next just closed is done.
func (d *Decoder) resume() {
	if n := len(d.swaps); n > 0 && d.swaps[n-1].frames == len(d.path) {
		s := d.swaps[n-1]
		d.swaps[n-1] = decodeSwap{}
		d.swaps = d.swaps[:n-1]
		d.data, d.pos = s.data, s.pos
	}
}

// entriesObject reads an array of map entries and returns the equivalent
// JSON object, checking each entry's shape and that no key comes twice. It
// returns false when the value is not an array (a violation is recorded).
func (d *Decoder) entriesObject() ([]byte, bool) {
	if !d.Array() {
		return nil, false
	}
	out := []byte{'{'}
	seen := map[string]int{}
	i := -1
	for d.NextItem() {
		i++
		if i == maxMapEntries {
			d.Invalid("more than " + strconv.Itoa(maxMapEntries) + " entries")
		}
		if i >= maxMapEntries || !d.Object() {
			if i >= maxMapEntries {
				d.Skip()
			}
			continue
		}
		var key string
		var value json.RawMessage
		hasKey, keyOK, hasValue := false, false, false
		for d.Next() {
			switch string(d.Key()) {
			case "key":
				hasKey = true
				key, keyOK = d.String()
			case "value":
				hasValue = true
				value = d.Raw()
			default:
				d.Invalid("unknown member: an entry of a map has only \"key\" and \"value\"")
				d.Skip()
			}
		}
		switch {
		case !hasKey:
			d.Missing("key")
		case !hasValue:
			d.Missing("value")
		case !keyOK || value == nil: // a violation is recorded
		default:
			if j, dup := seen[key]; dup {
				d.Push("key")
				d.Invalid("key " + strconv.Quote(key) + " is also the key of entry " + strconv.Itoa(j) + ": a map's keys are unique")
				d.Pop()
				continue
			}
			seen[key] = i
			if len(out) > 1 {
				out = append(out, ',')
			}
			k, _ := json.Marshal(key)
			out = append(out, k...)
			out = append(out, ':')
			out = append(out, value...)
		}
	}
	return append(out, '}'), true
}
