import { computed, watch, type ComputedRef } from 'vue'
import { useRoute, type RouteLocationNormalizedLoaded } from 'vue-router'
import { useWorkspacesStore } from '../stores/workspaces'

/**
 * What every workspace page does with its route: the workspace id of `/workspaces/:id/...`, and, at once
 * and whenever the id changes (a move to another workspace reuses the page), the workspace opened and the
 * page's own data loaded for it by `load`.
 */
export function useWorkspaceRoute(load: (workspaceId: string) => unknown = () => undefined): { id: ComputedRef<string>; route: RouteLocationNormalizedLoaded } {
  const route = useRoute()
  const workspaces = useWorkspacesStore()
  const id = computed(() => String(route.params.id))
  watch(
    id,
    (value) => {
      void workspaces.open(value)
      void load(value)
    },
    { immediate: true },
  )
  return { id, route }
}
