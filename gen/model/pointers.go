package model

// decidePointers decides, once for every loader, which fields and variants
// of the package's types are pointers (Field.Pointer, Variant.Pointer): a
// field that may be null is one (but a raw JSON value, which holds its own
// null), and so is an optional field whose zero value is a valid value
// (needsPointer), so that absent, null and zero differ. A variant is a
// pointer unless its nil already means absent. BreakValueCycles then makes
// pointers of the required fields that would make a type contain itself.
func decidePointers(p *Package) {
	for _, t := range p.Types {
		for _, f := range t.Fields {
			f.Pointer = f.Nullable && f.Type.Kind != RefRaw || !f.Required && needsPointer(f.Type)
		}
		for _, v := range t.Variants {
			v.Pointer = !nilIsAbsent(v.Type.Kind)
		}
	}
}

// nilIsAbsent reports whether a value of kind k has a nil that tells it is
// absent: slices, maps, bytes, raw JSON and any.
func nilIsAbsent(k RefKind) bool {
	switch k {
	case RefSlice, RefMap, RefBytes, RefRaw, RefAny:
		return true
	}
	return false
}

// needsPointer reports whether an optional value of type r needs a pointer
// to be told apart from its zero value: everything whose nil does not
// already mean absent, through named types and aliases to what they name.
func needsPointer(r *TypeRef) bool {
	if nilIsAbsent(r.Kind) {
		return false
	}
	if r.Kind == RefNamed && (r.Named.Kind == KindNamed || r.Named.Kind == KindAlias) && r.Named.Underlying != nil {
		return needsPointer(r.Named.Underlying)
	}
	return true
}
