// Package webhook is what the webhook receivers generated from OpenAPI
// documents build on (and what a hand-written receiver may use alone): the
// verification of signed webhook requests and an http.Handler that routes,
// bounds, verifies, de-duplicates and hands each event to generated code.
// It uses the standard library only.
//
// # Signatures
//
// Three schemes, each with several secrets for a rotation (the first signs,
// every one verifies) and several signatures in one header:
//
//   - [Standard]: Standard Webhooks (https://www.standardwebhooks.com):
//     webhook-id, webhook-timestamp, webhook-signature "v1,<base64>" …, an
//     HMAC-SHA256 of "id.timestamp.body" keyed by a "whsec_<base64>"
//     secret, the timestamp within [DefaultTolerance] (5 minutes).
//   - [GitHub]: X-Hub-Signature-256 "sha256=<hex>", an HMAC-SHA256 of the
//     body keyed by the secret's text; no time is signed.
//   - [Stripe]: Stripe-Signature "t=<unix>,v1=<hex>…", an HMAC-SHA256 of
//     "t.body", the time within the tolerance.
//
// A document says which scheme its webhooks use with the extension
// x-webhook-signature: standard|github|stripe|none (on the document, a
// webhook's path item or its operation), or by declaring the scheme's
// header as a parameter; standard otherwise.
//
// # The handler
//
// [NewHandler] serves [Route]s, one per event, at "/" + the event's name
// (and at "/" when there is only one). It answers:
//
//	404  no event of that name           405  another method than the event's
//	413  a body over WithMaxBytes (default 1 MiB)
//	401  unsigned, no signature matching a secret, or a time outside the tolerance
//	409  a message id received before (within the tolerance; ReplayStore)
//	400  a body or header the document's schema refuses (every violation, with its JSON path)
//	2xx  handled: the first 2xx the document gives the event, else 204
//	500  the receiver's method failed (logged, not sent), or the 4xx/5xx of an error with HTTPStatus() int
//
// Every refusal has the body {"error": "…"}. A message whose method fails is
// forgotten by the replay store, so that the sender's retry is received.
//
// # Replays
//
// A [ReplayStore] remembers message ids, each made of what the signature
// covers (webhook-id; GitHub: the body's SHA-256; Stripe: the SHA-256 of the
// signed time and body) past the end of the tolerance window, so that a
// captured request cannot be replayed while its signature still holds. The
// default [MemoryStore] is bounded (DefaultReplayEntries); replicas share a
// store of their own behind the interface.
package webhook
