/**
 * A hub for benchmarks that query it directly (bench/retrieval.ts, bench/phrase-search.ts): started
 * as `make serve` starts it, with its models loaded before anything is timed or judged.
 */
import { startHub } from "../test/support/hub-process.ts"

/** Texts per /encode call. */
const ENCODE_BATCH = 64

/** A hub with its encoder (and, unless told otherwise, its reranker) loaded, so latencies are warm ones. */
export const startWarmHub = async (versionDir: string, { reranker = true }: { readonly reranker?: boolean } = {}) => {
  const hub = await startHub(versionDir, { WARM_WINDOW_SECONDS: "3600" })
  const url = hub.url
  const post = async (p: string, body?: unknown) =>
    (await fetch(`${url}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<any>
  await post(reranker ? "/warmup?rerank=1" : "/warmup")
  for (let i = 0; i < 1200; i++) {
    const s = (await (await fetch(`${url}/status`)).json()) as any
    if (s.ready && (!reranker || s.models.reranker)) break
    await new Promise((r) => setTimeout(r, 100))
  }
  /** One vector per text, in order, asked for in batches. */
  const encode = async (texts: ReadonlyArray<string>): Promise<Float32Array[]> => {
    const out: Float32Array[] = []
    for (let i = 0; i < texts.length; i += ENCODE_BATCH) {
      const { vectors } = (await post("/encode", { texts: texts.slice(i, i + ENCODE_BATCH) })) as { vectors: number[][] }
      out.push(...vectors.map((v) => Float32Array.from(v)))
    }
    return out
  }
  return { url, post, encode, stop: () => void hub.stop() }
}
