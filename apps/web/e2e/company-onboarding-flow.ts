import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { normalisePlate } from '@boomgate/contracts/plates';
import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import { openMobileMenu, type Viewport } from './flows';
import { assert, type Flow } from './runner';

type CompanyOnboardingFlowContext = {
  flow: Flow;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  viewport: Viewport;
  screenshot: (name: string) => Promise<void>;
  pageErrors: string[];
};

/** A valid SA ID number for a made-up person (date, sequence, citizen, 8, Luhn digit). */
function saId(yymmdd: string, sequence: number): string {
  const twelve = `${yymmdd}${String(sequence).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

const csvCell = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/**
 * Company onboarding: download the CSV template, fill it in (two good rows and one with a bad ID
 * number), upload it, check the preview's per-row error, import, check the summary, see the
 * vehicle under Registered Vehicles, then add one driver on the Individual tab. Runs at both
 * sizes: on a phone the app is reached through the Menu drawer, and Onboarding, which has no
 * place in the phone's navigation (spec §2), by its address.
 */
export async function runCompanyOnboardingFlow({
  flow,
  page,
  baseUrl,
  viewport,
  screenshot,
  pageErrors,
}: CompanyOnboardingFlowContext) {
  const isMobile = viewport.name === 'mobile';
  const suffix = `${viewport.name}-${Date.now().toString(36)}`;
  const admin = { username: `company-${suffix}`, password: 'Admin-pass-1' };
  // Plates unique to this run (the server is shared by every flow).
  const digits = String(Date.now() % 1_000_000).padStart(6, '0');
  const plate = `CA ${digits.slice(0, 3)}-${digits.slice(3)}`;
  const individualPlate = `CY ${digits.slice(1)}`;
  let template = '';

  await flow.step('registers an organization and opens company onboarding', async () => {
    await page.goto(`${baseUrl}/register`);
    await page.getByLabel('Organization Name').fill(`Sishen Transport (${viewport.name})`);
    await page.getByLabel('Full Name').fill('Company Admin');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Confirm Password').fill(admin.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding', { timeout: 15_000 });
    await page.getByRole('link', { name: /^Company Onboarding/ }).click();
    await page.waitForURL((url) => url.pathname === '/onboard/company');
    await page.getByRole('heading', { level: 1, name: 'Company Onboarding' }).waitFor();
    await page.getByText('CSV or XLSX, up to 10MB').waitFor();
  });

  await flow.step('downloads the CSV template', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'CSV Template' }).click(),
    ]);
    const file = await download.path();
    template = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
    const header = template.split(/\r?\n/)[0] ?? '';
    assert(
      header.startsWith('Driver Name*,Surname*,ID Number*,Phone'),
      `the template header is "${header}"`,
    );
    assert(header.includes('Plate Number'), `the template has no plate column: "${header}"`);
  });

  const filePath = path.join(tmpdir(), `boomgate-fleet-${suffix}.csv`);
  await flow.step('uploads the filled-in template and previews one bad row', async () => {
    const columns = (template.split(/\r?\n/)[0] ?? '').split(',');
    const row = (values: Record<string, string>) =>
      columns.map((column) => csvCell(values[column.replace('*', '')] ?? '')).join(',');
    const lines = [
      columns.join(','),
      row({
        'Driver Name': 'Sipho',
        Surname: 'Nkosi',
        'ID Number': saId('800101', 5000 + (Date.now() % 4000)),
        Phone: '082 123 4567',
        'Transport Company': 'Sishen Transport',
        'Plate Number': plate,
      }),
      row({
        'Driver Name': 'Thandi',
        Surname: 'Mokoena',
        'ID Number': saId('910215', Date.now() % 4000),
      }),
      row({ 'Driver Name': 'Johan', Surname: 'Botha', 'ID Number': '8001015009086' }),
    ];
    await writeFile(filePath, `${lines.join('\r\n')}\r\n`);
    await page.getByLabel('Drivers and vehicles file').setInputFiles(filePath);
    const summary = page.getByTestId('preview-summary');
    await summary.waitFor({ timeout: 30_000 });
    const text = (await summary.textContent()) ?? '';
    assert(
      text.includes('2 of 3 rows are ready to import (2 drivers and 1 vehicle)'),
      `the preview says: ${text}`,
    );
    const badRow = page.locator('tr[data-row="4"]');
    const badText = (await badRow.textContent()) ?? '';
    assert(
      badText.includes('ID Number: This is not a valid South African ID number'),
      `row 4 says: ${badText}`,
    );
    await screenshot('company-preview');
  });

  await flow.step('imports the valid rows and shows the summary', async () => {
    await page.getByRole('button', { name: 'Import 2 Rows' }).click();
    const result = page.getByTestId('import-result');
    await result.waitFor({ timeout: 30_000 });
    const text = (await result.textContent()) ?? '';
    assert(text.includes('2 drivers and 1 vehicle imported.'), `the result says: ${text}`);
    assert(text.includes('Row 4: ID Number:'), `the rejected row is not listed: ${text}`);
    await screenshot('company-imported');
  });

  await flow.step('the imported vehicle is under Registered Vehicles', async () => {
    if (isMobile) {
      const drawer = await openMobileMenu(page);
      await drawer.getByRole('link', { name: 'Registered Vehicles' }).click();
    } else {
      await page.getByTestId('sidebar').getByRole('link', { name: 'Registered Vehicles' }).click();
    }
    await page.waitForURL((url) => url.pathname === '/registered-vehicles');
    const stored = normalisePlate(plate);
    const card = page.getByTestId(`vehicle-${stored}`);
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    assert(text.includes('Sipho Nkosi'), `the vehicle card says: ${text}`);
  });

  await flow.step('adds one driver and vehicle on the Individual tab', async () => {
    if (isMobile) {
      await page.goto(`${baseUrl}/onboarding`);
    } else {
      await page.getByTestId('sidebar').getByRole('link', { name: 'Onboarding' }).click();
    }
    await page.waitForURL((url) => url.pathname === '/onboarding');
    await page.getByRole('link', { name: /^Company Onboarding/ }).click();
    await page.waitForURL((url) => url.pathname === '/onboard/company');
    await page.getByRole('tab', { name: 'Individual' }).click();
    await page.getByRole('button', { name: 'Add Driver' }).click();
    await page.getByText('Driver name is required.').waitFor();
    await page.getByLabel('Driver Name *').fill('Lerato');
    await page.getByLabel('Surname *').fill('Dube');
    await page.getByLabel('ID Number *').fill(saId('850615', 4000 + (Date.now() % 1000)));
    await page.getByLabel('Plate Number').fill(individualPlate);
    await page.getByRole('button', { name: 'Add Driver' }).click();
    await page
      .getByText(/Lerato Dube and vehicle CY\d+ were added\./)
      .first()
      .waitFor();
    await screenshot('company-individual');
  });

  await flow.step('no uncaught errors in the page', async () => {
    assert(pageErrors.length === 0, `page errors:\n${pageErrors.join('\n')}`);
  });
}
