export interface ApplicationSettingsTable {
  /** GitLab's attribute name, e.g. `signup_enabled`. */
  name: string;
  /** The value as JSON. */
  value: string;
  created_at: number;
  updated_at: number;
}

export interface ApplicationSettingsTables {
  application_settings: ApplicationSettingsTable;
}
