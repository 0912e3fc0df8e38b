/** The shop's settings the browser app shows: the server fills them into every page it sends. */
export interface ShopConfig {
  productName: string;
  feedbackUrl: string;
  /** The shop's IANA time zone (SHOP_TIMEZONE), in which events' dates and times are written: the door finds today's event with it. */
  timeZone?: string;
}
