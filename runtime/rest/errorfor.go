package rest

// ErrorFor is the error of a response no success case of a generated method
// took: the *APIError[T] of r (NewAPIError) when its status is one of
// statuses (as Is reads them), else r.Unexpected().
func ErrorFor[T any](r *Response, statuses ...string) error {
	for _, s := range statuses {
		if r.Is(s) {
			return NewAPIError[T](r)
		}
	}
	return r.Unexpected()
}
