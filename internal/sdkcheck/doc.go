// Package sdkcheck checks the declarations of package runtime/declare
// against the official Go SDKs of the providers: each profile's "tools"
// member unmarshals into the SDK's parameter types (openai-go's Chat
// Completions and Responses tool unions, anthropic-sdk-go's ToolUnionParam,
// genai's Tool, the MCP Go SDK's Tool) and marshals back to the same JSON,
// nothing dropped, with every tool's name, description and schema in the
// SDK's typed fields. It is a module of its own, so that the SDKs are no
// dependency of opentoolgen's.
//
// Its tests read the declarations of every golden case, and with
// OPENTOOLGEN_REALWORLD=1 the large public documents of ogen's test data
// (GitHub's REST API, Kubernetes, OpenAI, Telegram) declared in every
// profile, with tool search and namespaces where the profile has them.
package sdkcheck
