/**
 * Real IEEE OUI prefixes (checked against the `oui-data` package by a test) that the
 * simulator puts on universal device and sensor MACs, so vendor lookup on simulated data
 * finds the vendors a real deployment would see. Weights are relative, within one list.
 *
 * @example
 * PHONE_VENDORS[0]!.vendor; // "Samsung Electronics Co.,Ltd"
 */
export interface VendorOuis {
  /** Vendor name exactly as the first line of its `oui-data` entry. */
  readonly vendor: string;
  /** Relative share of devices drawn from this vendor. */
  readonly weight: number;
  /** 24-bit OUI prefixes, lowercase colon form (`"f0:76:6f"`). */
  readonly prefixes: readonly string[];
}

/**
 * Phone vendors for visitors, passers-by and staff, by a rough phone market share (Korea-like:
 * Samsung first, then Apple).
 *
 * @example
 * PHONE_VENDORS.flatMap((v) => v.prefixes).includes("f0:76:6f"); // true (Apple)
 */
export const PHONE_VENDORS: readonly VendorOuis[] = [
  {
    vendor: "Samsung Electronics Co.,Ltd",
    weight: 0.48,
    prefixes: ["08:d4:2b", "1c:af:05", "34:c3:ac", "50:32:75", "64:5d:f4", "78:f2:38", "8c:de:e6", "a4:30:7a", "b8:d9:ce", "cc:e9:fa", "e4:92:82"],
  },
  {
    vendor: "Apple, Inc.",
    weight: 0.34,
    prefixes: ["08:c7:b5", "18:af:61", "28:cf:e9", "38:e1:3d", "4c:57:ca", "5c:ad:cf", "6c:4a:85", "7c:2a:ca", "88:b2:91", "98:e0:d9", "a8:96:8a", "b8:c1:11", "cc:29:f5", "dc:9e:8f", "f0:76:6f"],
  },
  { vendor: "LG Electronics (Mobile Communications)", weight: 0.06, prefixes: ["00:1c:62", "34:fc:ef", "88:c9:d0"] },
  { vendor: "Google, Inc.", weight: 0.04, prefixes: ["00:1a:11", "44:bb:3b", "b0:2a:43"] },
  { vendor: "Xiaomi Communications Co Ltd", weight: 0.04, prefixes: ["00:9e:c8", "30:50:ce", "6c:48:3f", "9c:28:f7", "d4:17:61"] },
  { vendor: "HUAWEI TECHNOLOGIES CO.,LTD", weight: 0.02, prefixes: ["00:18:82", "3c:86:9a", "7c:76:68", "bc:d2:06"] },
  { vendor: "GUANGDONG OPPO MOBILE TELECOMMUNICATIONS CORP.,LTD", weight: 0.01, prefixes: ["00:ca:e0", "4c:ea:ae", "ac:76:4c"] },
  { vendor: "vivo Mobile Communication Co., Ltd.", weight: 0.01, prefixes: ["00:9c:c0", "44:4a:4c", "9c:fb:d5"] },
];

/**
 * Laptops' Wi-Fi modules, for the laptops that probe with their universal MAC. The makers and
 * weights are the Brno lab sc6-61's (tomas-fryza/probe-request-project, MIT; see
 * test/data/brno-sc6-61/README.md): device-days of universal MACs of each maker over its 111
 * days, the lab's 14 fixed PCs left out, counted for the makers that build laptop Wi-Fi modules
 * (Intel 982, Liteon 142, AzureWave 121, Fugui 86, Cloud Network 75, ASUSTek 25, Hon Hai 12),
 * with prefixes the lab heard. Left out: Apple (241: iPhones and MacBooks cannot be told apart),
 * Samsung Electro-Mechanics (46: Galaxy phones' modules too) and MediaTek (823, all under one
 * prefix: no laptop's).
 *
 * @example
 * LAPTOP_VENDORS[0]!.vendor; // "Intel Corporate"
 */
export const LAPTOP_VENDORS: readonly VendorOuis[] = [
  { vendor: "Intel Corporate", weight: 982, prefixes: ["00:13:02", "00:1e:65", "00:22:fa", "00:24:d7", "00:e1:8c", "04:33:c2"] },
  { vendor: "Liteon Technology Corporation", weight: 142, prefixes: ["00:f4:8d", "14:5a:fc", "30:52:cb", "3c:91:80", "3c:95:09", "3c:a0:67"] },
  { vendor: "AzureWave Technology Inc.", weight: 121, prefixes: ["10:68:38", "14:13:33", "28:c2:dd", "2c:3b:70", "34:6f:24", "48:e7:da"] },
  { vendor: "CHONGQING FUGUI ELECTRONICS CO.,LTD.", weight: 86, prefixes: ["1c:bf:c0", "28:cd:c4", "40:23:43", "4c:d5:77", "4c:eb:bd", "5c:3a:45"] },
  { vendor: "CLOUD NETWORK TECHNOLOGY SINGAPORE PTE. LTD.", weight: 75, prefixes: ["10:6f:d9", "14:ac:60", "20:2b:20", "2c:98:11", "30:03:c8", "50:c2:e8"] },
  { vendor: "ASUSTek COMPUTER INC.", weight: 25, prefixes: ["00:1f:c6", "04:d9:f5", "0c:9d:92", "34:97:f6", "40:b0:76", "54:a0:50"] },
  { vendor: "Hon Hai Precision Ind. Co.,Ltd.", weight: 12, prefixes: ["40:49:0f", "44:1c:a8", "54:35:30", "60:6d:c7", "70:18:8b", "74:40:bb"] },
];

/**
 * Always-on shop equipment (receipt printers, POS terminals) for stationary devices.
 *
 * @example
 * STATIONARY_VENDORS[0]!.vendor; // "Seiko Epson Corporation"
 */
export const STATIONARY_VENDORS: readonly VendorOuis[] = [
  { vendor: "Seiko Epson Corporation", weight: 0.5, prefixes: ["00:00:48", "64:c6:d2", "b0:e8:92"] },
  { vendor: "Hewlett Packard", weight: 0.3, prefixes: ["00:01:e6", "10:62:e5", "88:51:fb"] },
  { vendor: "Raspberry Pi Trading Ltd", weight: 0.2, prefixes: ["28:cd:c1", "dc:a6:32"] },
];

/**
 * Sensor (`square_mac`) prefixes: the sensors are Raspberry Pi boards.
 *
 * @example
 * SENSOR_VENDORS[0]!.prefixes; // ["b8:27:eb"]
 */
export const SENSOR_VENDORS: readonly VendorOuis[] = [
  { vendor: "Raspberry Pi Foundation", weight: 0.6, prefixes: ["b8:27:eb"] },
  { vendor: "Raspberry Pi (Trading) Ltd", weight: 0.4, prefixes: ["2c:cf:67", "88:a2:9e"] },
];
