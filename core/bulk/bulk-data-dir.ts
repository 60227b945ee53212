/** The bulk data folder of a process's settings (BULK_DATA_DIR; ADR 0036). */
export function bulkDataDirOf(services: { bulkDataDir?: string }): string {
  return services.bulkDataDir ?? 'var/bulk-data';
}
