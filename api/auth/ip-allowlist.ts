/** IP allowlists: CIDR ranges (or single addresses), IPv4 and IPv6, matched with ipaddr.js. */
import ipaddr from "ipaddr.js"

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** Parses `10.0.0.0/8`, `2001:db8::/32` or a bare address; throws on anything else. */
export const parseRange = (cidr: string): Range => {
  const text = cidr.trim()
  if (text.includes("/")) return ipaddr.parseCIDR(text)
  const addr = ipaddr.process(text)
  return [addr, addr.kind() === "ipv4" ? 32 : 128]
}

export const isValidRange = (cidr: string) => {
  try {
    parseRange(cidr)
    return true
  } catch {
    return false
  }
}

/** True when the remote address lies in one of the ranges (IPv4-mapped IPv6 counts as IPv4). */
export const isAllowed = (remote: string | undefined, ranges: ReadonlyArray<string>): boolean => {
  if (remote === undefined || !ipaddr.isValid(remote)) return false
  const addr = ipaddr.process(remote)
  return ranges.some((cidr) => {
    const [range, bits] = parseRange(cidr)
    return range.kind() === addr.kind() && addr.match([range, bits] as any)
  })
}
