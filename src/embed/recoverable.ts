/**
 * Which embed errors the map survives (`LocEmbedError.recoverable`): the frame marks each error it
 * reports by this table, and loc-js/testing's fake `LOC` marks the errors a test makes it report, so
 * that a component tested against the fake meets the same errors as against the real map.
 */
import type { LocErrorCode } from './public-types.ts';

/** Whether the map keeps working after each error. */
export const RECOVERABLE: Record<LocErrorCode, boolean> = {
  session_expired: false,
  invalid_session: false,
  key_inactive: false,
  partner_required: false,
  origin_mismatch: false,
  load_timeout: false,
  rate_limited: true,
  session_limit_reached: false,
  network: true,
  unsupported_location: true,
  outside_session_area: true,
  invalid_code: true,
  code_not_found: true,
  service_unavailable: true,
  internal_error: true,
  invalid_option: true,
};
