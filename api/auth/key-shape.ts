/**
 * API key shape (SPEC part 5): `ak_live_` or `ak_test_` followed by 32 alphanumerics, 40
 * characters in all. The first 16 characters are the public handle used to find the key's record
 * and to quote it in logs; the rest never leaves the client.
 */
import { randomInt } from "node:crypto"

export const KEY_SHAPE = /^ak_(live|test)_[A-Za-z0-9]{32}$/
export const HANDLE_SHAPE = /^ak_(live|test)_[A-Za-z0-9]{8}$/
export const HANDLE_LENGTH = 16

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

export const isWellFormedKey = (key: string) => KEY_SHAPE.test(key)
export const isTestKey = (key: string) => key.startsWith("ak_test_")
export const handleOf = (key: string) => key.slice(0, HANDLE_LENGTH)

/** 32 characters from a CSPRNG (about 190 bits). */
export const generateKey = (test: boolean): string => {
  let body = ""
  for (let i = 0; i < 32; i++) body += ALPHABET[randomInt(ALPHABET.length)]
  return `${test ? "ak_test_" : "ak_live_"}${body}`
}
