/**
 * DigitalOcean's public catalogue: regions, Droplet sizes and distribution images, as its API
 * lists them (slugs, memory in MiB, prices in USD). Scenarios may replace any of them in their
 * dataset; these are the defaults every world starts from.
 */

export interface RegionDoc { name: string; slug: string; features: string[]; available: boolean; sizes: string[] }
export interface SizeDoc {
  slug: string; memory: number; vcpus: number; disk: number; transfer: number; price_monthly: number; price_hourly: number;
  regions: string[]; available: boolean; description: string;
}
export interface ImageDoc {
  id: number; name: string; type: 'base' | 'snapshot' | 'backup' | 'custom'; distribution: string; slug: string | null; public: boolean;
  regions: string[]; created_at: string; min_disk_size: number; size_gigabytes: number; description: string; tags: string[];
  status: 'NEW' | 'available' | 'pending' | 'deleted' | 'retired'; error_message: string;
}

const REGIONS: readonly [string, string][] = [
  ['nyc1', 'New York 1'], ['nyc3', 'New York 3'], ['sfo2', 'San Francisco 2'], ['sfo3', 'San Francisco 3'], ['ams3', 'Amsterdam 3'],
  ['sgp1', 'Singapore 1'], ['lon1', 'London 1'], ['fra1', 'Frankfurt 1'], ['tor1', 'Toronto 1'], ['blr1', 'Bangalore 1'], ['syd1', 'Sydney 1'], ['nyc2', 'New York 2'],
];

// slug, memory MiB, vcpus, disk GB, transfer TB, monthly USD, description
const SIZES: readonly [string, number, number, number, number, number, string][] = [
  ['s-1vcpu-512mb-10gb', 512, 1, 10, 0.5, 4, 'Basic'],
  ['s-1vcpu-1gb', 1024, 1, 25, 1, 6, 'Basic'],
  ['s-1vcpu-2gb', 2048, 1, 50, 2, 12, 'Basic'],
  ['s-2vcpu-2gb', 2048, 2, 60, 3, 18, 'Basic'],
  ['s-2vcpu-4gb', 4096, 2, 80, 4, 24, 'Basic'],
  ['s-4vcpu-8gb', 8192, 4, 160, 5, 48, 'Basic'],
  ['s-8vcpu-16gb', 16384, 8, 320, 6, 96, 'Basic'],
  ['g-2vcpu-8gb', 8192, 2, 25, 4, 63, 'General Purpose'],
  ['g-4vcpu-16gb', 16384, 4, 50, 5, 126, 'General Purpose'],
  ['c-2', 4096, 2, 25, 4, 42, 'CPU-Optimized'],
  ['c-4', 8192, 4, 50, 5, 84, 'CPU-Optimized'],
  ['m-2vcpu-16gb', 16384, 2, 50, 4, 84, 'Memory-Optimized'],
];

// id, name, distribution, slug, min disk
const IMAGES: readonly [number, string, string, string, number][] = [
  [160364710, '24.04 (LTS) x64', 'Ubuntu', 'ubuntu-24-04-x64', 7],
  [129211873, '22.04 (LTS) x64', 'Ubuntu', 'ubuntu-22-04-x64', 7],
  [145736498, '12 x64', 'Debian', 'debian-12-x64', 7],
  [136326497, '11 x64', 'Debian', 'debian-11-x64', 7],
  [158254391, '40 x64', 'Fedora', 'fedora-40-x64', 7],
  [148462131, '9 Stream x64', 'CentOS', 'centos-stream-9-x64', 10],
  [150880512, 'AlmaLinux 9', 'AlmaLinux', 'almalinux-9-x64', 10],
  [153247790, 'Rocky Linux 9', 'Rocky Linux', 'rockylinux-9-x64', 10],
];

export function defaultRegions(): RegionDoc[] {
  return REGIONS.map(([slug, name]) => ({
    name, slug, available: true, sizes: SIZES.map(([s]) => s),
    features: ['backups', 'ipv6', 'metadata', 'install_agent', 'storage', 'image_transfer'],
  }));
}

export function defaultSizes(): SizeDoc[] {
  return SIZES.map(([slug, memory, vcpus, disk, transfer, monthly, description]) => ({
    slug, memory, vcpus, disk, transfer, price_monthly: monthly, price_hourly: Math.round((monthly / 672) * 100000) / 100000,
    regions: REGIONS.map(([r]) => r), available: true, description,
  }));
}

export function defaultImages(createdAt: string): ImageDoc[] {
  return IMAGES.map(([id, name, distribution, slug, minDisk]) => ({
    id, name, type: 'base', distribution, slug, public: true, regions: REGIONS.map(([r]) => r), created_at: createdAt,
    min_disk_size: minDisk, size_gigabytes: 2.36, description: `${distribution} ${name}`, tags: [], status: 'available', error_message: '',
  }));
}
