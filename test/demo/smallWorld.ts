/** A quiet world for the demo's tests: a small day reads fast. */
export const SMALL_WORLD = { visitorsPerDay: 60, passersByPerDay: 400, staffPerShop: 2, stationaryPerShop: 1 };
