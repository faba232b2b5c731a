package emit

// File is one generated file that is not Go (the C header of an OpenDyn
// package), or a Go file once rendered.
type File struct {
	Name    string
	Content []byte
}
