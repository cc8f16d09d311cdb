/** X-Request-Id: a caller's own id is kept when it is short and plain, so traces join up; otherwise a fresh one. */
import { randomUUID } from "node:crypto"

export const requestIdFor = (incoming: string | undefined) =>
  incoming !== undefined && /^[A-Za-z0-9._-]{8,64}$/.test(incoming) ? incoming : randomUUID()

/** Path of a request URL, whether the server saw `/path?q` or a full `http://host/path?q`. */
export const splitUrl = (url: string) => {
  const withoutOrigin = /^[a-z]+:\/\//i.test(url) ? url.replace(/^[a-z]+:\/\/[^/]*/i, "") || "/" : url
  const q = withoutOrigin.indexOf("?")
  return q === -1 ? { path: withoutOrigin, search: "" } : { path: withoutOrigin.slice(0, q), search: withoutOrigin.slice(q) }
}
