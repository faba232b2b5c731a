package model

// LoadOptions are what a loader is told besides its document, the same for
// every loader (gen/load/...: Load(src, opts)); a loader ignores what does
// not apply to its kind. The Go package name is none of a loader's
// business: the generator gives it after loading (SetName).
type LoadOptions struct {
	// AllowRefDirs are the directories, besides the document's own, whose
	// files an external $ref may read (OpenAPI).
	AllowRefDirs []string
	// MaxFileBytes is the largest file an external $ref may read (OpenAPI);
	// 0 means source.MaxFileBytes (source.FileLimit).
	MaxFileBytes int64
	// SlowLoad, when set, is told of each OpenAPI document loaded the usual
	// (slower) way instead of by package fastload, and why.
	SlowLoad func(doc, reason string)
}

// SetName names the Go package p; a document without a title of its own
// (an OpenAPI document's info.title may be empty) is served with the
// package's name as its title.
func (p *Package) SetName(name string) {
	p.Name = name
	if p.Kind == PackageOpenAPI && p.Document != nil && p.Document.Info.Title == "" {
		p.Document.Info.Title = name
	}
}
