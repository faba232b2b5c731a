package model

// CheckedResult returns the type of the result of an HTTP operation that its
// client decodes from a JSON body and, with strict responses, checks with
// the type's decoder (MarkDecoders names the decoders it needs); nil when
// there is none: no result, a stream, text or bytes, or a value of any type
// (which has nothing to check).
func CheckedResult(f *Function) *TypeRef {
	if f.HTTP == nil || f.Stream || f.Result == nil {
		return nil
	}
	switch f.Result.Kind {
	case RefAny, RefRaw:
		return nil
	}
	for _, r := range f.HTTP.Responses {
		if r.Success && r.Type == f.Result && r.Media == MediaJSON {
			return f.Result
		}
	}
	return nil
}
