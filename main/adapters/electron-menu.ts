import { Menu, app, shell } from 'electron'
import { appMenuTemplate } from './electron-policy'

/** The application menu; DevTools are offered only in development (see appMenuTemplate). */
export function installAppMenu(dataDir: string, development: boolean): void {
  const template = appMenuTemplate({ platform: process.platform, development, version: app.getVersion(), openDataFolder: () => void shell.openPath(dataDir) })
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}
