// Package opentool is the loader of OpenTool documents: it reads a document's
// JSON, checks it against the OpenTool specification (all problems at once,
// each with its JSON pointer and byte offset; warnings for what it reads in a
// guessed or degraded way) and returns it as a [document.OpenTool]. It is the
// first stage of the generator for OpenTool input (and for the equivalent
// documents of OpenDyn); generated code does not need it at run time.
package opentool
